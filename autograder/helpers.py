"""Answering a composed step's helper requests with the running test's own values (see stand_in)."""
from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .core import stand_in
from .core.child import codec
from .sandbox.runner import HelperRefused


class StandInAnswers:
    """`answer(call_id, name, args)`: the encoded value of the row of the call's stand-in table
    that the request matches (the reference's own call on that call's test); HelperRefused with
    the reason otherwise. Nothing is computed on the request's arguments but the comparison."""

    def __init__(self, tables: Mapping[int, Iterable[stand_in.StandIn]],
                 signatures: Mapping[str, inspect.Signature] | None = None) -> None:
        self.tables = dict(tables)  # call id -> tuple of stand_in.StandIn
        self.signatures = dict(signatures or {})  # name -> the reference's inspect.Signature

    def __call__(self, call_id: int, name: str, args: Sequence[Any], keywords: dict[str, Any] | None = None) -> Any:
        """The encoded value (child.codec, JSON-ready) the request gets."""
        try:
            value = stand_in.answer(self.tables.get(call_id, ()), name=name, args=args, keywords=keywords,
                                    signature=self.signatures.get(name))
        except stand_in.Refused as refusal:
            raise HelperRefused(refusal.reason) from None
        return codec.encode(value)
