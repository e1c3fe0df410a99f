"""The ``ast`` walker: the engine's front end for Python source.

It reads source text (``source``: decoding, notebooks' cells, ``newer_syntax``), walks modules and
functions in order (``analysis`` the statements, ``expressions`` each expression node, ``nodes`` what
a node says by itself, ``top_level`` other modules' top levels, ``deep`` code nested deeply) and
hands each expression and statement to the flow and the expression evaluator; ``syntax`` maps
spans back to nodes.
"""
