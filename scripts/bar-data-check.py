#!/usr/bin/env python3
"""Cross-check a BAR scenario directory (map.toml, oob.toml, scenario TOML files) before the Rust loader exists.

Python 3 standard library only. Usage: scripts/bar-data-check.py scenarios/bar-drill [scenario.toml ...]
Checks: TOML parses; every id referenced exists; hexes lie on the map; road hexes and hexside pairs are adjacent;
TEC keys are the charts' keys; multi-hex formations are adjacent and laid out as data.rs says (a line right-hand
hex first, a column head first); stacks agree on hexes, formation and facing; no hex holds both armies, cavalry
with foot, or a detachment with its main army (24.1d); every unit and leader is placed once (set-up or
reinforcement; replacements may wait off the map); SP totals per army and arm are printed.
Hex geometry is crates/hexmap's: RRCC, row grows south, column grows west, odd rows shifted east; several maps
side by side share rows, a map letter prefixes the id and `[[sheet]]` tables give each map's column offset.
"""
import sys
import tomllib
from pathlib import Path

HEX_KEYS = {"clear", "village", "woods", "orchard", "pond", "meadow", "marsh", "redoubt"}
SIDE_KEYS = {"stream", "ravine", "slope", "steep", "bridge", "entrenchment"}
VERTEX = {"N": 0, "NE": 60, "SE": 120, "S": 180, "SW": 240, "NW": 300}
HEXSIDE = {"NE": 30, "E": 90, "SE": 150, "SW": 210, "W": 270, "NW": 330}
VERTEX_FORMS = {"line", "attack", "skirmish", "general", "unlimbered", "hook-left", "hook-right", "square"}
SIDE_FORMS = {"march", "road", "limbered"}


class Grid:
    def __init__(self, m):
        self.sheets = {}
        for s in m.get("sheet", []):
            self.sheets[s["letter"]] = s
        if not self.sheets:
            self.sheets[""] = {"letter": "", "rows": m["map"]["rows"], "cols": m["map"]["cols"], "col_offset": 0}

    def parse(self, h):
        letter = h[0] if h[:1].isalpha() else ""
        digits = h[len(letter):]
        if letter not in self.sheets or not (3 <= len(digits) <= 4) or not digits.isdigit():
            return None
        r, c = int(digits[:-2]), int(digits[-2:])
        s = self.sheets[letter]
        if not (s["rows"][0] <= r <= s["rows"][1] and s["cols"][0] <= c <= s["cols"][1]):
            return None
        return r, c + s.get("col_offset", 0)

    def axial(self, h):
        r, c = self.parse(h)
        return (-c - (r - (r & 1)) // 2, r)

    def dist(self, a, b):
        (q1, r1), (q2, r2) = self.axial(a), self.axial(b)
        dq, dr = q2 - q1, r2 - r1
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def bearing(self, a, b):
        (q1, r1), (q2, r2) = self.axial(a), self.axial(b)
        off = {(1, -1): 30, (1, 0): 90, (0, 1): 150, (-1, 1): 210, (-1, 0): 270, (0, -1): 330}
        return off.get((q2 - q1, r2 - r1))


def main():
    d = Path(sys.argv[1])
    p = []
    m = tomllib.loads((d / "map.toml").read_text())
    o = tomllib.loads((d / "oob.toml").read_text())
    g = Grid(m)
    terrain = {}
    for grp in m.get("hexes", []):
        t = grp.get("terrain")
        if t is not None and t not in HEX_KEYS:
            p.append(f"map: terrain key {t!r}")
        for h in grp["ids"]:
            if g.parse(h) is None:
                p.append(f"map: hex {h} off the map")
            elif t is not None:
                terrain[h] = t
    seen = set()
    for s in m.get("hexsides", []):
        a, b = s["between"]
        if s["feature"] not in SIDE_KEYS:
            p.append(f"map: hexside key {s['feature']!r}")
        if g.parse(a) is None or g.parse(b) is None or g.dist(a, b) != 1:
            p.append(f"map: hexside {a}-{b} not two adjacent hexes on the map")
        k = tuple(sorted((a, b)))
        if k in seen:
            p.append(f"map: hexside {a}-{b} listed twice")
        seen.add(k)
    for r in m.get("roads", []):
        for a, b in zip(r["hexes"], r["hexes"][1:]):
            if g.parse(a) is None or g.parse(b) is None or g.dist(a, b) != 1:
                p.append(f"map: road {r.get('name')}: {a}-{b} not adjacent on the map")
    for pl in m.get("places", []):
        if g.parse(pl["hex"]) is None:
            p.append(f"map: place {pl['name']} at {pl['hex']} off the map")
    armies = {a["id"]: a for a in o["army"]}
    leaders = {x["id"]: x for x in o.get("leader", [])}
    wings = {x["id"]: x for x in o.get("wing", [])}
    brigades = {x["id"]: x for x in o.get("brigade", [])}
    units = {x["id"]: x for x in o.get("unit", [])}
    for a in armies.values():
        if leaders.get(a["leader"], {}).get("kind") != "army":
            p.append(f"oob: army {a['id']}: leader {a['leader']} is not an army leader")
    for w in wings.values():
        if w["leader"] not in leaders:
            p.append(f"oob: wing {w['id']}: no leader {w['leader']}")
    for b in brigades.values():
        if b["leader"] not in leaders or b["army"] not in armies:
            p.append(f"oob: brigade {b['id']}: leader or army unknown")
        if b.get("wing") and b["wing"] not in wings:
            p.append(f"oob: brigade {b['id']}: no wing {b['wing']}")
    for x in leaders.values():
        if x["army"] not in armies:
            p.append(f"oob: leader {x['id']}: army")
        if x.get("replaces") and x["replaces"] not in leaders:
            p.append(f"oob: leader {x['id']}: replaces unknown {x['replaces']}")
    for u in units.values():
        if u["army"] not in armies:
            p.append(f"oob: unit {u['id']}: army")
        if u.get("brigade") and (u["brigade"] not in brigades or brigades[u["brigade"]]["army"] != u["army"]):
            p.append(f"oob: unit {u['id']}: brigade {u.get('brigade')}")
        if not any(k in u for k in ("source", "reconstructed", "invented")):
            p.append(f"oob: unit {u['id']}: no provenance")
    for x in leaders.values():
        if not any(k in x for k in ("source", "reconstructed", "invented")):
            p.append(f"oob: leader {x['id']}: no provenance")
    # SP totals
    tot = {}
    for u in units.values():
        k = (u["army"], u["arm"])
        tot[k] = tot.get(k, 0) + u["sp"]
    print("SP totals:", ", ".join(f"{a}/{b} {n}" for (a, b), n in sorted(tot.items())))
    print("units per army:", {a: sum(1 for u in units.values() if u["army"] == a) for a in armies})
    files = [d / f for f in sys.argv[2:]] or sorted(x for x in d.glob("*.toml") if x.name not in ("map.toml", "oob.toml", "features.toml", "charts.toml"))
    for f in files:
        check_scenario(f, g, armies, leaders, brigades, units, p)
    for x in p:
        print("PROBLEM", x)
    print(f"{len(p)} problems")
    return 1 if p else 0


def check_scenario(f, g, armies, leaders, brigades, units, p):
    s = tomllib.loads(f.read_text())
    n = f.name
    placed = {}
    stacks = {}
    for e in s.get("setup", []):
        u = e["unit"]
        if u not in units:
            p.append(f"{n}: setup of unknown unit {u}")
            continue
        if u in placed:
            p.append(f"{n}: unit {u} set up twice")
        placed[u] = "setup"
        hs = e["hexes"]
        if any(g.parse(h) is None for h in hs):
            p.append(f"{n}: unit {u}: hex off the map {hs}")
            continue
        form, fac = e["formation"], e["facing"]
        if form in VERTEX_FORMS and fac not in VERTEX:
            p.append(f"{n}: unit {u}: {form} faces a hexpoint, not {fac}")
        if form in SIDE_FORMS and fac not in HEXSIDE:
            p.append(f"{n}: unit {u}: {form} faces a hexside, not {fac}")
        for a, b in zip(hs, hs[1:]):
            if g.dist(a, b) != 1:
                p.append(f"{n}: unit {u}: {a}-{b} not adjacent")
        if len(hs) == 2 and g.dist(hs[0], hs[1]) == 1:
            br = g.bearing(hs[0], hs[1])
            if form == "line" and fac in VERTEX and br != (VERTEX[fac] - 90) % 360:
                p.append(f"{n}: unit {u}: line facing {fac} must list its right-hand hex first")
            if form == "march" and fac in HEXSIDE and br != (HEXSIDE[fac] + 180) % 360:
                p.append(f"{n}: unit {u}: march column facing {fac}: the head comes first")
        if form == "road" and fac in HEXSIDE and len(hs) > 1 and g.bearing(hs[0], hs[1]) == HEXSIDE[fac]:
            p.append(f"{n}: unit {u}: road column faces its own tail")
        for h in hs:
            stacks.setdefault(h, []).append((u, tuple(hs), form, fac))
        if units[u]["arm"] == "artillery" and form not in ("limbered", "unlimbered", "road"):
            p.append(f"{n}: artillery {u} in {form}")
    det_of = {}
    for dt in s.get("detachment", []):
        if dt["leader"] not in leaders:
            p.append(f"{n}: detachment {dt['id']}: leader")
        for b in dt["brigades"]:
            if b not in brigades:
                p.append(f"{n}: detachment {dt['id']}: brigade {b}")
            for u in units.values():
                if u.get("brigade") == b:
                    det_of[u["id"]] = dt["id"]
        for u in dt.get("units", []):
            if u not in units or units[u].get("brigade"):
                p.append(f"{n}: detachment {dt['id']}: {u} is not an independent unit")
            det_of[u] = dt["id"]
    for h, st in stacks.items():
        if len({x[1:] for x in st}) > 1:
            p.append(f"{n}: stack at {h}: units differ in hexes/formation/facing {st}")
        arms = {units[x[0]]["arm"] for x in st}
        if len({units[x[0]]["army"] for x in st}) > 1:
            p.append(f"{n}: {h} holds both armies")
        if "cavalry" in arms and len(arms) > 1:
            p.append(f"{n}: {h}: cavalry stacked with foot or guns (10.2a)")
        if len({det_of.get(x[0]) for x in st}) > 1:
            p.append(f"{n}: {h}: detachment and main army stacked (24.1d)")
    lplaced = {}
    for e in s.get("leader_setup", []):
        if e["leader"] not in leaders:
            p.append(f"{n}: leader_setup of unknown {e['leader']}")
        if g.parse(e["hex"]) is None:
            p.append(f"{n}: leader {e['leader']} off the map")
        lplaced[e["leader"]] = e["hex"]
    for r in s.get("reinforcement", []):
        if g.parse(r["hex"]) is None:
            p.append(f"{n}: reinforcement hex {r['hex']} off the map")
        for u in r.get("units", []):
            if u not in units:
                p.append(f"{n}: reinforcement of unknown unit {u}")
            elif u in placed:
                p.append(f"{n}: unit {u} both set up and arriving")
            placed[u] = f"turn {r['turn']}"
        for x in r.get("leaders", []):
            if x not in leaders:
                p.append(f"{n}: reinforcement of unknown leader {x}")
            lplaced[x] = r["hex"]
    for x in leaders.values():
        if x["id"] not in lplaced and not x.get("replaces"):
            in_play = any(b["leader"] == x["id"] and any(placed.get(u["id"]) for u in units.values() if u.get("brigade") == b["id"]) for b in brigades.values())
            if in_play or x["kind"] in ("army",):
                p.append(f"{n}: leader {x['id']} not placed")
    hexes = {a: [] for a in armies}
    for h, st in stacks.items():
        hexes[units[st[0][0]]["army"]].append(h)
    a, b = list(armies)
    if hexes[a] and hexes[b]:
        gap = min(g.dist(x, y) for x in hexes[a] for y in hexes[b])
        print(f"{n}: {len(placed)} units placed, {len(lplaced)} leaders; nearest enemy units {gap} hexes apart")


if __name__ == "__main__":
    sys.exit(main())
