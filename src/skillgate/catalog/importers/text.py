"""Descriptions for an agent's context: the first paragraph, plain text, capped.

Rules (both importers):
- an endpoint's description is the summary plus the first paragraph of the
  description (the summary once when the paragraph repeats it);
- HTML tags are removed and entities decoded; markdown noise is removed: links
  become their text, images, code fences, tables, headings marks, list bullets,
  block quotes and GitHub alert markers (`> [!NOTE]`) go, `**`, `__`, `*`, `_`
  and backtick emphasis is unwrapped;
- a description that is only the operation id (Trello's `updateCardsLabelsByIdCard().`)
  says nothing: the call is said from its verb and path instead (`said_from_path`:
  "Update the labels of a card.");
- whitespace is collapsed, and the text is capped (300 characters for an
  endpoint, 200 for a parameter) at the last sentence end that keeps at least
  half of it, else at a word boundary, ending with "…". The full text stays one
  link away (`docs_url`).
"""

from __future__ import annotations

import html
import re

from skillgate.catalog.importers.naming import single, snake

ENDPOINT_CAP = 300
PARAM_CAP = 200
CAUSE_CAP = 160

_FENCE = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1[^\n]*$", re.DOTALL | re.MULTILINE)
_HTML_BLOCK = re.compile(r"<(pre|code|table|script|style)\b.*?</\1\s*>", re.DOTALL | re.IGNORECASE)
_PARA = re.compile(r"<\s*/?p\b[^>]*>", re.IGNORECASE)
_BREAK = re.compile(r"<\s*(br|/li|li|/div|div)\b[^>]*>", re.IGNORECASE)
# Only real HTML tags: `refs/heads/<branch name>` is text, not a tag.
_TAG = re.compile(
    r"</?(?:a|abbr|b|blockquote|br|caption|code|dd|del|details|div|dl|dt|em|h[1-6]|hr|i|img|"
    r"ins|kbd|li|ol|p|pre|s|samp|small|span|strong|sub|summary|sup|table|tbody|td|th|thead|"
    r"tr|tt|u|ul|var)\b[^<>]*>",
    re.IGNORECASE,
)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\((?:[^()]|\([^)]*\))*\)")
_REF_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]")
_AUTOLINK = re.compile(r"<(https?://[^>\s]+)>")
_ALERT = re.compile(
    r"^[ \t]*>?[ \t]*\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*$", re.MULTILINE
)
# Line-based patterns use [ \t], never \s: a newline is a paragraph break to keep.
_LINE_MARK = re.compile(r"^[ \t]*(?:>[ \t]?)*[ \t]*(?:#{1,6}[ \t]+|[-*+][ \t]+|\d+\.[ \t]+)?", re.M)
_TABLE_ROW = re.compile(r"^[ \t]*\|.*$", re.MULTILINE)
_STRONG = re.compile(r"(\*\*|__)(\S(?:.*?\S)?)\1")
_EMPHASIS = re.compile(r"(?<![\w*])([*_])(\S(?:[^*_]*?\S)?)\1(?![\w*])")
_CODE = re.compile(r"`+([^`]*)`+")
_SPACE = re.compile(r"\s+")
_SENTENCE_END = re.compile(r"(?<=[^\d\s])[.!?](?=\s)")  # not "1." of a list


def strip_markup(text: str) -> str:
    """Plain text of a markdown/HTML fragment, keeping paragraph breaks (blank lines)."""
    text = text.replace("\r\n", "\n")
    text = _FENCE.sub("\n\n", text)
    text = _HTML_BLOCK.sub(" ", text)
    text = _PARA.sub("\n\n", text)
    text = _BREAK.sub("\n", text)
    text = _TAG.sub("", text)
    text = _TABLE_ROW.sub("\n", text)
    text = _ALERT.sub("", text)
    text = _IMAGE.sub("", text)
    text = _LINK.sub(r"\1", text)
    text = _REF_LINK.sub(r"\1", text)
    text = _AUTOLINK.sub(r"\1", text)
    text = _LINE_MARK.sub("", text)
    text = _STRONG.sub(r"\2", text)
    text = _EMPHASIS.sub(r"\2", text)
    text = _CODE.sub(r"\1", text).replace("**", "").replace("`", "")  # unclosed ones too
    return html.unescape(text)


def paragraphs(text: str) -> list[str]:
    """The text's paragraphs as single lines, empty ones dropped."""
    parts = re.split(r"\n\s*\n", strip_markup(text or ""))
    return [p for p in (squash(part) for part in parts) if p]


def squash(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def cap(text: str, limit: int) -> str:
    """`text` within `limit` characters: cut at a sentence end or a word, with "…"."""
    text = squash(text)
    if len(text) <= limit:
        return text
    window = text[: limit - 1]
    ends = [m.end() for m in _SENTENCE_END.finditer(window + " ")]
    if ends and ends[-1] >= limit // 2:
        return window[: ends[-1]].rstrip()
    cut = window.rsplit(" ", 1)[0] if " " in window else window
    return cut.rstrip(" ,;:-(") + "…"


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text[-1] in ".!?…:" else text + "."


def endpoint_description(summary: str, description: str, fallback: str) -> str:
    """Summary + first paragraph, plain and capped; `fallback` when both are too short."""
    head = squash(strip_markup(summary or ""))
    paras = paragraphs(description)
    first = paras[0] if paras else ""
    if head and first and first.lower().startswith(head.lower().rstrip(".")):
        head = ""
    text = " ".join(_sentence(t) for t in (head, first) if t)
    text = cap(text, ENDPOINT_CAP)
    if len(text) >= 10:
        return text
    return _sentence(fallback) if len(fallback) >= 9 else f"{_sentence(fallback)} (no description)"


def param_description(description: str, name: str, note: str = "") -> str:
    """A parameter's description, or the placeholder when the source gives none."""
    paras = paragraphs(description)
    text = cap(paras[0], PARAM_CAP - len(note) - 1) if paras else ""
    if note:  # after the cap: a note on how to pass the value is never cut
        text = f"{_sentence(text)} {note}" if text else note
    return text if len(text) >= 3 else f"The {name} parameter."


def short(description: str, limit: int = CAUSE_CAP) -> str:
    """The first paragraph of `description`, plain and capped (an error's cause)."""
    paras = paragraphs(description)
    return cap(paras[0], limit) if paras else ""


def humanise(name: str) -> str:
    """`issues_list_for_repo` -> `Issues list for repo`."""
    words = name.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


_ID_VERBS = {"get": "Get", "update": "Update", "add": "Add", "delete": "Delete", "list": "List"}
_METHOD_VERBS = {
    "GET": "Get",
    "POST": "Add",
    "PUT": "Update",
    "PATCH": "Update",
    "DELETE": "Delete",
}
_ID_ONLY = re.compile(r"[\W_]+")
_VERSION = re.compile(r"^v\d+(?:\.\d+)?$")


def only_the_id(operation_id: str, summary: str, description: str) -> bool:
    """Whether the document's text for an operation is its id, one word, and nothing
    else (a humanised id, Netlify's "List accounts for user.", is words: kept)."""
    text = f"{summary}{description}".strip()
    said = _ID_ONLY.sub("", text).lower()
    return (
        bool(operation_id and text)
        and " " not in text
        and said == _ID_ONLY.sub("", operation_id).lower()
    )


def said_from_path(operation_id: str, method: str, path: str) -> str:
    """The call in words from its verb and path: `PUT /cards/{idCard}/labels` ->
    "Update the labels of a card.", `DELETE /tokens/{token}` -> "Delete a token."."""
    # Not a version (`v1`) nor the caller (`me`): what the path's objects are.
    segments = [s for s in path.split("/") if s and s != "me" and not _VERSION.match(s)]
    things: list[str] = []
    for i, segment in enumerate(segments):
        if segment.startswith("{"):
            if segment == "{field}":  # Trello's one field of the object before it
                things.append("a field")
            continue
        words = snake(segment).replace("_", " ")
        following = segments[i + 1] if i + 1 < len(segments) else ""
        if following.startswith("{") and following != "{field}":  # one of them
            *kind, last = words.split()
            one = " ".join([*kind, single(last)])
            things.append(("an " if one[:1] in "aeiou" else "a ") + one)
        else:
            things.append(words if words.startswith("my ") else "the " + words)
    verb = _ID_VERBS.get(snake(operation_id).split("_")[0], _METHOD_VERBS.get(method, "Call"))
    return f"{verb} {' of '.join(reversed(things)) or path}."
