"""What several rules build on beyond ``rules.base``, one concept a module: ``promoted`` (the
inputs and result of an operation's promotion), ``chains`` (chains of one operator weighed in
every association), ``through_calls`` (a raising operation reported at the calls of the
program's functions that make it raise), ``rewrites`` (operations evaluated again with other
operands or modes, and the casts fixes write) and ``integers`` (values wrapped into an integer
dtype).  None is a rule: rules live one a module (or one a package) beside this one."""
