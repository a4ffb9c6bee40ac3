"""Sentences about what a failing step's values show: the repair found in the student's own
function (`repair_text`) and the explainer's readings (`explained_text`)."""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from ..repair_record import LOCATED, MARK_CLOSE, MARK_OPEN
from .messages import Messages, case_label, place_in_own_file
from .text import position

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ..repair_record import RepairPart
    from ..verdict import StepResult

def repair_text(say: Messages, result: StepResult) -> str:
    """The repair found in the student's own function (grading's search, autograder.repair), told
    as much as the lab chooses (Lab.repair_shows); "" when none was found."""
    found = result.repair
    if found is None or not found.parts:
        return ""
    shows = say.lab.repair_shows if say.lab is not None else "where"
    located = all(part.kind in LOCATED for part in (*found.parts, *found.also))
    if shows == "kind":
        return say("repair", "kind_located" if located else "kind",
                   kind=", ".join(dict.fromkeys(say("repair_kind", p.kind) for p in found.parts)))

    def told(edits: tuple[RepairPart, ...]) -> str:
        # One slip on several lines is said once, at each of its places; two edits of one kind on
        # one line are both shown (`Q[f]` and `K[f]`; «W_Q» and «W_K» marked in one line).
        groups: dict[str, list[RepairPart]] = {}
        for part in edits:
            groups.setdefault(part.kind, []).append(part)
        return " ".join(say("repair", "part", place=", ".join(dict.fromkeys(
                                place_in_own_file(say, found.filename, p.line) for p in same)),
                            text=_part_text(say, kind, same))
                        for kind, same in groups.items())

    if found.also:
        where, closing = say("repair", "either", first=told(found.parts), second=told(found.also)), "where_either"
    else:
        where, closing = told(found.parts), "where" if len(found.parts) == 1 else "where_together"
    after = " / ".join(f"`{p.after}`" for p in found.parts if p.after)
    if shows == "fix" and after:
        return say("repair", "fix", parts=where, after=after)
    return say("repair", "where_located" if located else closing, parts=where)


def _part_text(say: Messages, kind: str, same: list[RepairPart]) -> str:
    """The catalog's sentence for the edits `same` of one `kind`; a call added is named by its function."""
    before = "`, `".join(_on_first_line(same))
    if kind == "call_added":
        called = _added_call(same[0].after)
        return say("repair", "call_added", before=before, called=called) if called else \
            say("repair", "call_added_unnamed", before=before)
    return say("repair", kind, before=before)


def _added_call(after: str) -> str:
    """The function a `call_added` edit wraps a line's whole value in (`np.tril` of
    `return np.tril(mask)`): the kind of change, not the fix; "" when the edited line does not read so."""
    try:  # the student's own code, edited: any text at all, read here and nowhere run
        statement = ast.parse(after.strip()).body[0]
    except (SyntaxError, IndexError, ValueError, RecursionError, MemoryError):
        return ""
    value = getattr(statement, "value", None)
    return ast.unparse(value.func) if isinstance(value, ast.Call) else ""


def _on_first_line(parts: list[RepairPart]) -> list[str]:
    """The code each part changes on the first part's line, once each; marked texts of one line
    (the whole line, «» around what changes) merged into one with every mark."""
    texts: dict[str, str] = {}
    for part in parts:
        if part.line != parts[0].line:
            continue
        plain = part.before.replace(MARK_OPEN, "").replace(MARK_CLOSE, "")
        texts[plain] = _marks_merged(texts[plain], part.before) if plain in texts else part.before
    return list(texts.values())


def _marks_merged(first: str, second: str) -> str:
    """One text with the marks of two marked copies of it."""
    def marked(text: str) -> set[int]:
        at, plain_index, inside = set(), 0, False
        for character in text:
            if character == MARK_OPEN:
                inside = True
            elif character == MARK_CLOSE:
                inside = False
            else:
                if inside:
                    at.add(plain_index)
                plain_index += 1
        return at
    every = marked(first) | marked(second)
    plain = first.replace(MARK_OPEN, "").replace(MARK_CLOSE, "")
    merged, inside = [], False
    for index, character in enumerate(plain):
        if (index in every) != inside:
            merged.append(MARK_OPEN if not inside else MARK_CLOSE)
            inside = not inside
        merged.append(character)
    if inside:
        merged.append(MARK_CLOSE)
    return "".join(merged)


def explained_text(say: Messages, result: StepResult) -> str:
    """What the explainer found in a step's values (judge.explanations), as sentences; "" when
    nothing. Quantities and kinds are named by the lab's catalog ([quantity], [kind])."""
    found = result.explained
    # One reading true of several outputs (Q, K and V all transposed; output and weights both from
    # swapped inputs) is said once, naming them all; and no sentence is said twice.
    grouped: dict[tuple[str, str, str], dict[str, Any]] = {}
    for explanation in found:
        key = (explanation["relation"], repr(explanation.get("parts")), repr(sorted((explanation.get("params") or {}).items())))
        if key in grouped:
            grouped[key]["outputs"].append(explanation["output"])
        else:
            grouped[key] = {"explanation": explanation, "outputs": [explanation["output"]]}
    merged = [dict(g["explanation"], output=", ".join(dict.fromkeys(g["outputs"]))) for g in grouped.values()]
    # Sentence by sentence: the one kind of test that fails is said once, before every reading.
    sentences = [sentence for e in merged for sentence in _explanation_sentences(say, e)]
    return " ".join(dict.fromkeys(sentence for sentence in sentences if sentence))


def _explanation_sentences(say: Messages, explanation: Mapping[str, Any]) -> list[str]:
    relation, params = explanation["relation"], dict(explanation.get("params") or {})
    kind = params.pop("kind", None)
    output = explanation["output"]
    if relation == "formula":
        sentences = [say("explain", "formula", output=output, phrase=_phrase(say, explanation["parts"])),
                     _why(say, explanation["parts"])]
    elif relation == "container":
        got = params["got"] if params["got"] != "other" else say("explain", "container_other")
        sentences = [say("explain", "container", output=output, got=got, expected=params["expected"])]
    elif relation in ("ratio_constant", "offset_constant"):
        key = relation + "_value" if "value" in params else relation
        sentences = [say("explain", key, output=output, **params)]
    elif relation == "observed":
        if "rows" in params:
            rows = say("explain", "kind_separator").join(f"'{label}'" for label in params["labels"])
            sentences = [say("explain", "observed_rows", case=case_label(say, params["case"]), rows=rows)]
        else:
            columns = say("explain", "kind_separator").join(position(c, say.lang) for c in params["columns"])
            sentences = [say("explain", "observed_columns", case=case_label(say, params["case"]),
                             columns=columns)]
    elif relation == "computes":
        sentences = [say("explain", "computes", output=output, expression=params["expression"]),
                     _computes_meaning(say, params)]
    elif relation == "computes_on":
        sentences = [say("explain", "computes_on", output=output, expression=params["expression"],
                         argument=params["arguments"][0]), _computes_meaning(say, params)]
    elif relation == "kind_only":
        sentences = []
    elif relation in say.table.get("explain", {}):
        sentences = [say("explain", relation, output=output, **_named_params(say, params))]
    else:
        return []
    if kind:  # the one kind of test that fails leads: what the values show was read on it
        sentences.insert(0, say("explain", "kind", kind=say.table.get("kind", {}).get(kind, kind)))
    return sentences


def _computes_meaning(say: Messages, params: Mapping[str, Any]) -> str:
    """What a known function of the arguments is (the catalogs' [computes]: the engine's library,
    a lab's own entries); "" for one no catalog describes."""
    if params["known"] not in say.table.get("computes", {}):
        return ""
    names = list(params.get("arguments") or ()) + ["", ""]
    return say("computes", params["known"], a=names[0], b=names[1], axis=params.get("axis"))


def _quantity(say: Messages, name: str) -> str:
    return say.table.get("quantity", {}).get(name, name)


# The params of an explanation that name a quantity or an input of the lab (its catalog words them).
_QUANTITY_PARAMS = ("quantity", "instead", "input", "other")


def _named_params(say: Messages, params: Mapping[str, Any]) -> dict[str, Any]:
    return {key: _quantity(say, value) if key in _QUANTITY_PARAMS else value for key, value in params.items()}


def _phrase(say: Messages, parts: Sequence[Sequence[Any]]) -> str:
    """A formula's parts as one noun phrase: its base, then each change applied to it."""
    phrase = ""
    for kind, *args in parts:
        if kind == "base":
            phrase = say("explain", "base_expected") if args[0] == "expected" else _quantity(say, args[0])
        elif kind == "product":
            left, right, transposed, end = args
            phrase = say("explain", f"product_{end}", left=_quantity(say, left),
                         right=_quantity(say, right) + (".T" if transposed else ""))
        elif kind == "order":
            axes = tuple(args[0])
            phrase = say("explain", "order_T", x=phrase) if len(axes) == 2 else \
                say("explain", "order_axes", x=phrase, axes=str(axes))
        elif kind in ("times", "divided"):
            phrase = say("explain", kind, x=phrase, factor=args[0])
        elif kind in ("plus", "minus"):
            phrase = say("explain", kind, x=phrase, quantity=_quantity(say, args[0]))
        elif kind == "round":
            phrase = say("explain", "round_whole", x=phrase) if args[0] == 0 else \
                say("explain", "round", x=phrase, decimals=args[0])
        elif kind in ("trunc", "negated", "complement", "absolute"):
            phrase = say("explain", kind, x=phrase)
        elif kind in ("sum", "mean"):
            phrase = say("explain", kind, x=phrase, axis=args[0])
        elif kind == "row":
            phrase = say("explain", f"row_{args[0]}", x=phrase)
        elif kind == "product_axis":
            left, right, transposed = args
            phrase = say("explain", "product_axis", left=_quantity(say, left),
                         right=_quantity(say, right) + (".T" if transposed else ""))
        elif kind == "tempered":
            phrase = say("explain", f"tempered_{args[0]}", x=phrase, factor=args[1])
        elif kind == "unnormalised":
            phrase = say("explain", "unnormalised", x=phrase)
    return phrase


def _why(say: Messages, parts: Sequence[Sequence[Any]]) -> str:
    """What to check, by the formula's last change (a quantity returned instead: the base)."""
    kind, *args = parts[-1]
    if kind == "base":
        return say("explain", "why_base", quantity=_quantity(say, args[0]))
    if kind == "product":
        return say("explain", "why_product_only" if args[3].startswith("only_") else "why_product")
    if kind == "order":
        return say("explain", "why_order")
    if kind in ("times", "divided"):
        return say("explain", "why_scale", factor=args[0])
    if kind in ("plus", "minus"):
        return say("explain", "why_residual", quantity=_quantity(say, args[0]))
    if kind == "row" and args[0] == "sum":
        return say("explain", "why_row_sum")
    if kind == "product_axis":
        return say("explain", "why_product_axis")
    if kind == "tempered":
        return say("explain", f"why_tempered_{args[0]}", factor=args[1])
    if kind == "unnormalised":
        return say("explain", "why_unnormalised")
    return say("explain", {"round": "why_round", "trunc": "why_trunc", "sum": "why_sum", "mean": "why_mean", "row": "why_row",
                           "negated": "why_sign", "complement": "why_sign",
                           "absolute": "why_absolute"}[kind])
