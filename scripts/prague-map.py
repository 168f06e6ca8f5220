#!/usr/bin/env python3
"""Build a BAR map.toml (crates/bar/src/data.rs MapFile) from a feature file (scenarios/prague/features.toml).

Python 3 standard library only.

    python3 scripts/prague-map.py scenarios/prague/features.toml scenarios/prague/map.toml

The feature file describes the ground in kilometres (polygons, circles, bands round polylines, polylines, spot
heights); this script lays the hex grid of its [frame] over them and writes every hex's terrain and level, every
hexside feature, the roads as chains of adjacent hexes and the named places. The grid is tricorne's (crates/hexmap):
ids RRCC, the row grows south, the column grows WEST, pointy-top hexes with odd rows shifted half a hex east; several
maps side by side share their rows and carry their first letter in front of the id (1.3c). Deterministic: the same
feature file always gives the same map.toml, byte for byte.
"""
import math
import sys
import tomllib

HEX_KEYS = {"clear", "village", "woods", "orchard", "pond", "meadow", "marsh", "redoubt"}
SIDE_KEYS = {"stream", "ravine", "slope", "steep", "bridge", "entrenchment"}
PRIORITY = ["bridge", "ravine", "stream", "entrenchment", "steep", "slope"]  # one feature per hexside


class Frame:
    def __init__(self, f):
        self.s = f["hex_km"]
        self.dy = self.s * math.sqrt(3) / 2
        self.rows = f["rows"]
        self.east_x = f["east_x"]
        self.north_y = f["north_y"]
        # maps listed west to east; offsets count from the east edge (the column grows westward)
        self.maps = []
        off = 0
        for m in reversed(f["maps"]):
            self.maps.append((m["letter"], m["name"], m["cols"], off))
            off += m["cols"]
        self.maps.reverse()
        self.total_cols = off

    def hexes(self):
        for letter, _, cols, off in self.maps:
            for r in range(1, self.rows + 1):
                for c in range(1, cols + 1):
                    yield (r, c + off)

    def hid(self, h):
        r, g = h
        for letter, _, cols, off in self.maps:
            if off < g <= off + cols:
                return f"{letter}{r:02d}{g - off:02d}"
        raise ValueError(h)

    def centre(self, h):
        r, g = h
        return (self.east_x - self.s * (g - 1) + (self.s / 2 if r % 2 else 0.0), self.north_y - self.dy * (r - 1))

    def on_map(self, h):
        return 1 <= h[0] <= self.rows and 1 <= h[1] <= self.total_cols

    def nearest(self, p):
        x, y = p
        r0 = round((self.north_y - y) / self.dy) + 1
        best = None
        for r in (r0 - 1, r0, r0 + 1):
            g0 = round((self.east_x + (self.s / 2 if r % 2 else 0.0) - x) / self.s) + 1
            for g in (g0 - 1, g0, g0 + 1):
                cx, cy = self.centre((r, g))
                d = (cx - x) ** 2 + (cy - y) ** 2
                if best is None or d < best[0]:
                    best = (d, (r, g))
        return best[1]

    @staticmethod
    def neighbours(h):
        r, g = h
        if r % 2 == 0:
            return [(r, g - 1), (r, g + 1), (r - 1, g), (r - 1, g + 1), (r + 1, g), (r + 1, g + 1)]
        return [(r, g - 1), (r, g + 1), (r - 1, g - 1), (r - 1, g), (r + 1, g - 1), (r + 1, g)]


def inside_polygon(p, poly):
    x, y = p
    inside = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def dist_to_segment(p, a, b):
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def segments_cross(a, b, c, d):
    def orient(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    return (o1 > 0) != (o2 > 0) and (o3 > 0) != (o4 > 0)


def shape_test(feat, where):
    """A predicate on points for a feature's polygon / circle / band, and a point inside it."""
    if "polygon" in feat:
        poly = feat["polygon"]
        return (lambda p: inside_polygon(p, poly)), poly[0]
    if "circle" in feat:
        (cx, cy), r = feat["circle"]["at"], feat["circle"]["r"]
        return (lambda p: math.hypot(p[0] - cx, p[1] - cy) <= r), (cx, cy)
    if "band" in feat:
        line, w = feat["band"]["line"], feat["band"]["half_width"]
        return (lambda p: any(dist_to_segment(p, a, b) <= w for a, b in zip(line, line[1:]))), line[0]
    raise SystemExit(f"{where}: {feat.get('name')}: needs polygon, circle or band")


def prov(feat):
    bits = []
    if feat.get("source"):
        bits.append(feat["source"])
    if feat.get("reconstructed"):
        bits.append(feat["reconstructed"])
    return " — ".join(bits)


def q(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def id_list(ids):
    lines = []
    for i in range(0, len(ids), 12):
        lines.append("  " + ", ".join(q(x) for x in ids[i:i + 12]) + ",")
    return "[\n" + "\n".join(lines) + "\n]"


def build(features):
    fr = Frame(features["frame"])
    hexes = list(fr.hexes())
    centre = {h: fr.centre(h) for h in hexes}
    # heights, in file order
    level = {h: 0 for h in hexes}
    level_by = {h: None for h in hexes}
    for i, f in enumerate(features.get("height", [])):
        test, _ = shape_test(f, "height")
        for h in hexes:
            if test(centre[h]):
                level[h] = f["level"]
                level_by[h] = i
    # terrain areas, in file order
    terrain = {h: "clear" for h in hexes}
    terrain_by = {h: None for h in hexes}
    for i, f in enumerate(features.get("area", [])):
        if f["terrain"] not in HEX_KEYS:
            raise SystemExit(f"area {f['name']}: terrain {f['terrain']!r} is not a TEC key")
        test, first = shape_test(f, "area")
        got = [h for h in hexes if test(centre[h])]
        if not got:
            h = fr.nearest(first)
            got = [h] if fr.on_map(h) else []
        if not got:
            print(f"warning: area {f['name']} lies off the map", file=sys.stderr)
        for h in got:
            terrain[h] = f["terrain"]
            terrain_by[h] = i
    # hexside pairs, each once
    pairs = []
    for h in hexes:
        for n in fr.neighbours(h):
            if fr.on_map(n) and n > h:
                pairs.append((h, n))
    side = {}
    side_by = {}

    def put(pair, feat, why):
        old = side.get(pair)
        if old is None or PRIORITY.index(feat) < PRIORITY.index(old):
            side[pair] = feat
            side_by[pair] = why

    # level boundaries
    heights = features.get("height", [])
    for a, b in pairs:
        la, lb = level[a], level[b]
        if la == lb:
            continue
        hi = a if la > lb else b
        steep = abs(la - lb) >= 2 or (level_by[hi] is not None and heights[level_by[hi]].get("edge") == "steep")
        put((a, b), "steep" if steep else "slope", heights[level_by[hi]]["name"] if level_by[hi] is not None else "")
    # lines
    for f in features.get("line", []):
        if f["feature"] not in SIDE_KEYS:
            raise SystemExit(f"line {f['name']}: {f['feature']!r} is not a TEC hexside key")
        pts = f["points"]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        box = (min(xs) - 0.2, max(xs) + 0.2, min(ys) - 0.2, max(ys) + 0.2)
        for a, b in pairs:
            ca, cb = centre[a], centre[b]
            if not (box[0] <= ca[0] <= box[1] and box[2] <= ca[1] <= box[3]):
                continue
            if f["feature"] in ("stream", "ravine") and terrain[a] == "pond" and terrain[b] == "pond":
                continue
            if any(segments_cross(ca, cb, p, r) for p, r in zip(pts, pts[1:])):
                put((a, b), f["feature"], f["name"])
    # roads
    roads = []
    for f in features.get("road", []):
        chain = []
        pts = f["points"]
        for p, r in zip(pts, pts[1:]):
            n = max(1, int(math.hypot(r[0] - p[0], r[1] - p[1]) / 0.01))
            for k in range(n + 1):
                t = k / n
                h = fr.nearest((p[0] + t * (r[0] - p[0]), p[1] + t * (r[1] - p[1])))
                if not fr.on_map(h):
                    continue
                if chain and h == chain[-1]:
                    continue
                if h in chain:  # a loop: cut back to the first visit
                    chain = chain[: chain.index(h) + 1]
                    continue
                if chain and h not in fr.neighbours(chain[-1]):
                    common = [x for x in fr.neighbours(chain[-1]) if x in fr.neighbours(h) and fr.on_map(x)]
                    if not common:
                        # the road left the map and came back: start a new chain
                        roads.append((f["name"], chain))
                        chain = [h]
                        continue
                    chain.append(min(common, key=lambda x: dist_to_segment(centre[x], p, r)))
                chain.append(h)
        roads.append((f["name"], chain))
        for a, b in zip(chain, chain[1:]):
            pair = (min(a, b), max(a, b))
            if side.get(pair) in ("stream", "ravine"):
                side[pair] = "bridge"
                side_by[pair] = f["name"]
    # spots
    places = []
    problems = []
    for f in features.get("spot", []):
        h = fr.nearest(f["at"])
        if not fr.on_map(h):
            problems.append(f"spot {f['name']} off the map")
            continue
        if "level" in f and level[h] != f["level"]:
            problems.append(f"spot {f['name']}: level {f['level']} in the features, {level[h]} on the map at {fr.hid(h)}")
        places.append((f["name"], fr.hid(h), f.get("source", "")))
    return fr, hexes, terrain, terrain_by, level, level_by, side, side_by, roads, places, problems


def render(features, built):
    fr, hexes, terrain, terrain_by, level, level_by, side, side_by, roads, places, problems = built
    areas = features.get("area", [])
    heights = features.get("height", [])
    frame = features["frame"]
    out = []
    w = out.append
    w("# Prague, 6 May 1757 — the maps, RECONSTRUCTED and GENERATED: do not edit by hand.")
    w("# Built by scripts/prague-map.py from scenarios/prague/features.toml (edit that file and re-run the script).")
    w("# Every hex group names the features it comes from; their provenance (fact sheet lines, estimates) is in")
    w("# features.toml and docs/prague-data.md.")
    w("#")
    w("# Three maps side by side, WEST, CENTER, EAST (1.3b), each rows 01–%02d and columns 01–%02d; a hex id is the" % (frame["rows"], frame["maps"][0]["cols"]))
    w("# map's first letter and RRCC (1.3c: 'W2119' = row 21, column 19 of WEST). Inside a map the grid is tricorne's")
    w("# (crates/hexmap): the row grows south, the column grows WEST (column 01 = the map's east edge), pointy-top hexes,")
    w("# ODD rows shifted half a hex east. The maps share their rows: WEST column 01 is the west neighbour of CENTER")
    w("# column %02d in the same row, and CENTER column 01 that of EAST column %02d; so a hex's position on the whole" % (frame["maps"][1]["cols"], frame["maps"][2]["cols"]))
    w("# field is its row and its column plus the map's `col_offset` below (EAST 0, CENTER 40, WEST 80), and the")
    w("# neighbour rules of crates/hexmap apply unchanged across the map edges.")
    w("# Every hex is in exactly one [[hexes]] group, which gives both its terrain and its level (unlisted: clear, 0).")
    w("# Levels: 0 valley and pond meadows, 1 plateau, 2 hills, 3 the Žižka crown. One feature per hexside, by")
    w("# priority " + " > ".join(PRIORITY) + ".")
    w("")
    w("[map]")
    w('id = "prague"')
    w('name = "Prague 1757 (WEST, CENTER, EAST)"')
    w(f"rows = [1, {frame['rows']}]")
    w(f"cols = [1, {max(m['cols'] for m in frame['maps'])}]")
    w('default_terrain = "clear"')
    w("reconstructed = " + q(frame["reconstructed"]))
    w("")
    w("# The maps (1.3b–c). Not yet in crates/bar/src/data.rs (MapFile has one header): see docs/prague-data.md.")
    for letter, name, cols, off in fr.maps:
        w("[[sheet]]")
        w(f'letter = "{letter}"')
        w(f'name = "{name}"')
        w(f"rows = [1, {frame['rows']}]")
        w(f"cols = [1, {cols}]")
        w(f"col_offset = {off}")
        w("")
    w("# " + "-" * 100 + " hexes")
    groups = {}
    for h in hexes:
        if terrain[h] == "clear" and level[h] == 0:
            continue
        key = (terrain[h], level[h], terrain_by[h], level_by[h])
        groups.setdefault(key, []).append(h)

    def sort_key(k):
        return (k[0] != "clear", k[0], k[1], -1 if k[2] is None else k[2], -1 if k[3] is None else k[3])

    for key in sorted(groups, key=sort_key):
        t, lv, tb, lb = key
        ids = sorted(fr.hid(h) for h in groups[key])
        what = []
        if tb is not None:
            what.append(f"{t}: {areas[tb]['name']}")
        if lb is not None:
            what.append(f"level {lv}: {heights[lb]['name']}")
        w("# " + "; ".join(what))
        w("[[hexes]]")
        w("ids = " + id_list(ids))
        w(f'terrain = "{t}"')
        w(f"level = {lv}")
        w("reconstructed = " + q("features.toml — " + "; ".join(what)))
        w("")
    w("# " + "-" * 100 + " hexsides")
    for pair in sorted(side, key=lambda p: (PRIORITY.index(side[p]), side_by[p], fr.hid(p[0]), fr.hid(p[1]))):
        a, b = pair
        w("[[hexsides]]")
        w(f'between = ["{fr.hid(a)}", "{fr.hid(b)}"]')
        w(f'feature = "{side[pair]}"')
        w("")
    w("# " + "-" * 100 + " roads")
    for name, chain in roads:
        if len(chain) < 2:
            continue
        w("[[roads]]")
        w("name = " + q(name))
        w("hexes = " + id_list([fr.hid(h) for h in chain]))
        w('reconstructed = "features.toml road ' + name.replace('"', "'") + '"')
        w("")
    w("# " + "-" * 100 + " places")
    for name, hid, src in places:
        w("[[places]]")
        w("name = " + q(name))
        w(f'hex = "{hid}"')
        if src:
            w("reconstructed = " + q("features.toml spot; " + src))
        w("")
    return "\n".join(out)


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    with open(sys.argv[1], "rb") as fh:
        features = tomllib.load(fh)
    built = build(features)
    text = render(features, built)
    tomllib.loads(text)  # the output must parse
    problems = built[-1]
    for p in problems:
        print("PROBLEM", p, file=sys.stderr)
    with open(sys.argv[2], "w", encoding="utf-8") as fh:
        fh.write(text)
    fr, hexes, terrain, _, level, _, side, _, roads, places, _ = built
    from collections import Counter
    print("terrain:", dict(sorted(Counter(terrain.values()).items())))
    print("levels:", dict(sorted(Counter(level.values()).items())))
    print("hexsides:", dict(sorted(Counter(side.values()).items())))
    print("roads:", [(n, len(c)) for n, c in roads])
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
