"""Answering a composed step's helper requests with the running test's own values (see stand_in)."""
from . import stand_in
from .sandbox import codec
from .sandbox.runner import HelperRefused


class StandInAnswers:
    """`answer(call_id, name, args)`: the encoded value of the row of the call's stand-in table
    that the request matches (the reference's own call on that call's test); HelperRefused with
    the reason otherwise. Nothing is computed on the request's arguments but the comparison."""

    def __init__(self, tables, signatures=None):
        self.tables = dict(tables)  # call id -> tuple of stand_in.StandIn
        self.signatures = dict(signatures or {})  # name -> the reference's inspect.Signature

    def __call__(self, call_id, name, args, keywords=None):
        try:
            value = stand_in.answer(self.tables.get(call_id, ()), name=name, args=args, keywords=keywords,
                                    signature=self.signatures.get(name))
        except stand_in.Refused as refusal:
            raise HelperRefused(refusal.reason) from None
        return codec.encode(value)
