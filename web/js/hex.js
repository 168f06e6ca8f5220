// Hex geometry shared by the hex-map rulesets: pointy-top hexes of radius 1 around their centre.

export function corners(x, y, r = 1) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = ((60 * i - 90) * Math.PI) / 180;
    pts.push([x + r * Math.cos(a), y + r * Math.sin(a)]);
  }
  return pts;
}

export function pointsAttr(pts) {
  return pts.map((p) => p[0].toFixed(3) + ',' + p[1].toFixed(3)).join(' ');
}
