"""Errors a user can cause: each carries one sentence saying what is wrong and what to do."""


class UserError(Exception):
    """A problem with the user's input (bad path, unknown symbol, unsupported file).

    The message is shown as it is, without a traceback, so it must say what is wrong
    and what to do about it in one sentence.
    """
