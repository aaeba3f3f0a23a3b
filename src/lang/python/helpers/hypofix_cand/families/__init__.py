"""One module per family of mistakes (or a few closely related ones). Each function takes the
Generator and one node, proposes candidates through gen.replace / gen.emit, and is listed in
../registry.py with the families it proposes.
"""
