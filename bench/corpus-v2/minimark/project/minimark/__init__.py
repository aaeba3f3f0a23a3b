"""A small markdown-ish renderer and a template engine for the pages it goes into."""

from .render import markdown
from .template import Environment, Template, TemplateError, TemplateSyntaxError, UndefinedError

__all__ = ["Environment", "Template", "TemplateError", "TemplateSyntaxError", "UndefinedError", "markdown"]
