"""The ``ast`` walker: the engine's front end for Python source.

It reads source text (``source``: decoding, notebooks' cells, newer syntax), walks modules and
functions in order (``analysis``, ``top_level``, ``deep``) and hands each expression and statement
to the flow and the expression evaluator; ``syntax`` maps spans back to nodes.
"""
