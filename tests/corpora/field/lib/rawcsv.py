"""Raw CSV fields (quotes kept) so a sheet can be compared byte for byte with only chosen cells changed."""


def split_raw(line, delim=","):
    fields, cur, quoted = [], [], False
    for ch in line:
        if ch == '"':
            quoted = not quoted
        if ch == delim and not quoted:
            fields.append("".join(cur)); cur = []
        else:
            cur.append(ch)
    fields.append("".join(cur))
    return fields


def expected_sheet(raw_text, key_col, cell_col, new_values, delim=",", newline="\n"):
    """The sheet's text with cell_col of each row whose unquoted key_col is in new_values replaced."""
    out = []
    for line in raw_text.split(newline):
        f = split_raw(line, delim)
        if len(f) > max(key_col, cell_col):
            key = f[key_col].strip('"')
            if key in new_values:
                f[cell_col] = new_values[key]
        out.append(delim.join(f))
    return newline.join(out)
