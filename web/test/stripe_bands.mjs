// The server's band layout for --stripes (src/encode/stripe_layout.cpp),
// for tests that need to know where the boundaries fall: every band but
// the last a whole number of 16-pixel macroblock rows, as even as that
// allows (the first rows % n bands one row more), the last what is left;
// fewer bands where the picture has fewer than 2 rows a band.
export function stripeBands(height, stripes) {
  const rows = Math.floor(height / 16);
  const n = Math.max(1, Math.min(stripes, Math.floor(rows / 2), 16));
  if (n === 1) return [{ y: 0, h: height }];
  const out = [];
  let y = 0;
  for (let i = 0; i < n - 1; i++) {
    const h = (Math.floor(rows / n) + (i < rows % n ? 1 : 0)) * 16;
    out.push({ y, h });
    y += h;
  }
  out.push({ y, h: height - y });
  return out;
}
