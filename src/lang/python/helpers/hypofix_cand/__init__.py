"""The repair-candidate generator of hypofix_candidates.py: its core (text, kinds, scopes, units,
imports, generator, generate) and one module per family or small group of them (families/),
listed in registry.py.
"""
