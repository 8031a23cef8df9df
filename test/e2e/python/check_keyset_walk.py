"""python-gitlab, unchanged, against the API: keyset pagination over every project, and compression.

The runtime holds exactly the projects whose ids the ids file lists (a JSON array, ascending).
`gl.projects.list(pagination="keyset", order_by="id", sort="asc", per_page=100)` walked with
iterator=True and with get_all=True must each give every one of them once, in id order, following
the Link headers' cursors (no X-Total on a keyset page). A compressed answer, read raw, must be
gzip and decode to the very JSON (and Link) the uncompressed answer carries.

Usage: python3 check_keyset_walk.py <base url> <admin token> <ids file>. Exits non-zero with a
message on the first mismatch; prints "ok" when every check holds.
"""
import gzip
import json
import sys

import gitlab
import requests

from e2e_checks import check

url, token, ids_file = sys.argv[1], sys.argv[2], sys.argv[3]
with open(ids_file, encoding="utf-8") as file:
    expected = json.load(file)
check(expected == sorted(set(expected)), "the ids file lists ascending unique ids")

gl = gitlab.Gitlab(url, private_token=token)
KEYSET = {"pagination": "keyset", "order_by": "id", "sort": "asc", "per_page": 100}


def walked(ids, how):
    """Every seeded project once, in id order, nothing else."""
    check(len(ids) == len(set(ids)), f"{how}: {len(ids) - len(set(ids))} ids came twice")
    missing = sorted(set(expected) - set(ids))
    extra = sorted(set(ids) - set(expected))
    check(not missing and not extra, f"{how}: {len(missing)} missing (first {missing[:5]}), {len(extra)} extra ({extra[:5]})")
    check(ids == expected, f"{how}: not in id order")


# iterator=True: a generator following each page's Link rel="next" until a page has none.
pages = gl.projects.list(iterator=True, **KEYSET)
walked([project.id for project in pages], "iterator=True")
check(pages.total is None and pages.total_pages is None, f"keyset pages carry no X-Total, got {pages.total}")

# get_all=True: the same walk, collected into a list.
everything = gl.projects.list(get_all=True, **KEYSET)
walked([project.id for project in everything], "get_all=True")

# Compression: python-gitlab's session accepts gzip; the raw answer is gzip and decodes to what an
# identity-only client is sent, Link included (a cursor names the position, not the answer's coding).
compressed = gl.http_get("/projects", query_data=KEYSET, raw=True, streamed=True)
check(compressed.headers.get("Content-Encoding") == "gzip", f"gzip answer, got {compressed.headers.get('Content-Encoding')}")
check("Accept-Encoding" in compressed.headers.get("Vary", ""), f"Vary names Accept-Encoding, got {compressed.headers.get('Vary')}")
wire = compressed.raw.read(decode_content=False)
check(wire[:2] == b"\x1f\x8b", f"the bytes sent are a gzip stream, got {wire[:8]!r}")

identity = requests.Session()
identity.headers["Accept-Encoding"] = "identity"
plain_gl = gitlab.Gitlab(url, private_token=token, session=identity)
plain = plain_gl.http_get("/projects", query_data=KEYSET, raw=True)
check("Content-Encoding" not in plain.headers, f"identity answer not encoded, got {plain.headers.get('Content-Encoding')}")
check(len(wire) < len(plain.content), f"gzip is smaller: {len(wire)} vs {len(plain.content)} bytes")
check(gzip.decompress(wire) == plain.content, "the gzip stream decodes to the uncompressed body, byte for byte")
check(json.loads(gzip.decompress(wire)) == plain.json(), "decoded JSON equals the plain answer")
check([project["id"] for project in plain.json()] == expected[:100], "page 1 holds the first 100 ids")
check(compressed.headers.get("Link") == plain.headers.get("Link"), "both codings carry the same Link")
check('rel="next"' in plain.headers.get("Link", ""), f"page 1 links its next page, got {plain.headers.get('Link')}")

# What python-gitlab's own parsed read sees of a compressed answer equals the plain one too.
check(gl.http_get("/projects", query_data=KEYSET) == plain.json(), "python-gitlab's decoded page equals the plain one")

print("ok")
