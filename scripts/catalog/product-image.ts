import { demoBrandLabel as brandLabel } from "../../app/db/seed/demo-brands-and-categories";
import { hashString, seededRandom } from "./seeded-random";

/**
 * Product pictures drawn in code: the shop ships no photographs it has no
 * rights to, and every picture is small, sharp at any size and reproducible.
 *
 * A picture is a pure function of the product: a background tinted by
 * category, one illustration chosen from the product name (a blender for a
 * blender, a lantern for a lantern), coloured and varied by a hash of the slug,
 * and the brand as a small label. Same product in, same bytes out, which is
 * what lets the file name carry a content hash and be cached forever.
 */
export interface ProductPictureSubject {
  slug: string;
  name: string;
  bandName: string;
  category: string;
}

/** The drawing area of every picture (4:3). */
const PICTURE_WIDTH = 800;
const PICTURE_HEIGHT = 600;

type Hsl = readonly [hue: number, saturation: number, lightness: number];

interface Palette {
  ink: string;
  inkSoft: string;
  body: string;
  accent: string;
  accentDark: string;
  light: string;
  /** 0..1, for shape variation inside a motif. */
  variant: number;
}

type Motif = (p: Palette) => string;

/** Background hue and the body colours that look good on it, per category. */
const CATEGORY_STYLES: Record<string, { hue: number; bodies: readonly Hsl[]; accents: readonly Hsl[] }> = {
  electronics: {
    hue: 218,
    bodies: [
      [222, 16, 24],
      [215, 12, 88],
      [205, 62, 46],
      [350, 58, 52],
      [168, 42, 38],
    ],
    accents: [
      [190, 85, 55],
      [265, 70, 62],
      [32, 95, 58],
    ],
  },
  fitness: {
    hue: 14,
    bodies: [
      [8, 72, 56],
      [262, 42, 48],
      [195, 64, 42],
      [44, 88, 52],
      [222, 16, 26],
    ],
    accents: [
      [168, 60, 45],
      [48, 95, 55],
      [210, 80, 55],
    ],
  },
  "home appliances": {
    hue: 172,
    bodies: [
      [40, 30, 94],
      [222, 12, 26],
      [4, 62, 54],
      [165, 28, 50],
      [42, 50, 72],
    ],
    accents: [
      [200, 75, 50],
      [12, 80, 58],
      [45, 90, 55],
    ],
  },
  "home goods": {
    hue: 30,
    bodies: [
      [20, 52, 58],
      [205, 26, 52],
      [95, 18, 52],
      [38, 42, 72],
      [345, 34, 62],
    ],
    accents: [
      [150, 30, 42],
      [28, 70, 50],
      [220, 35, 40],
    ],
  },
  outdoor: {
    hue: 138,
    bodies: [
      [26, 82, 54],
      [140, 32, 34],
      [202, 58, 40],
      [48, 84, 54],
      [8, 62, 48],
    ],
    accents: [
      [45, 95, 60],
      [190, 70, 50],
      [20, 85, 55],
    ],
  },
};

const FALLBACK_STYLE = CATEGORY_STYLES.electronics as (typeof CATEGORY_STYLES)[string];

// --- Motifs: drawn around x = 400 and standing on y = 470. ---------------------------
// "url(#b)" is the body colour shaded as a cylinder, "url(#a)" the accent,
// "url(#m)" brushed metal, "url(#s)" a lit screen.

const tablet: Motif = (p) =>
  `<rect x="220" y="150" width="360" height="270" rx="26" fill="${p.ink}"/>` +
  `<rect x="236" y="166" width="328" height="238" rx="12" fill="url(#s)"/>` +
  `<path d="M236 360l90-80 60 50 70-90 108 110v2a12 12 0 0 1-12 12H248a12 12 0 0 1-12-12z" fill="#fff" opacity=".25"/>` +
  `<circle cx="${480 - Math.round(p.variant * 60)}" cy="215" r="22" fill="#fff" opacity=".55"/>` +
  `<path d="M330 420l-20 50h180l-20-50z" fill="${p.inkSoft}"/>`;

function handheld(p: Palette, keypad: boolean): string {
  const keys: string[] = [];
  for (let row = 0; keypad && row < 4; row++)
    for (let col = 0; col < 3; col++)
      keys.push(
        `<rect x="${340 + col * 43}" y="${300 + row * 36}" width="34" height="26" rx="7" fill="${row === 3 && col === 2 ? p.accent : p.inkSoft}"/>`,
      );
  const screenHeight = keypad ? 130 : 230;
  return (
    `<rect x="320" y="130" width="160" height="340" rx="30" fill="url(#b)"/>` +
    `<rect x="334" y="146" width="132" height="${screenHeight}" rx="14" fill="${p.ink}"/>` +
    `<rect x="344" y="156" width="112" height="${screenHeight - 20}" rx="8" fill="url(#s)"/>` +
    (keypad
      ? `<path d="M350 240l25-30 20 18 25-40 30 52z" fill="#fff" opacity=".4"/>${keys.join("")}`
      : `<path d="M356 330l26-40 22 24 24-60 22 76z" fill="#fff" opacity=".4"/><rect x="356" y="172" width="60" height="14" rx="7" fill="#fff" opacity=".6"/>` +
        `<circle cx="370" cy="420" r="16" fill="${p.inkSoft}"/><circle cx="430" cy="420" r="16" fill="${p.accent}"/>`)
  );
}

const remote: Motif = (p) =>
  `<path d="M520 160L640 100" stroke="#ff4d4d" stroke-width="6" stroke-linecap="round" opacity=".8"/><circle cx="640" cy="100" r="9" fill="#ff4d4d"/>` +
  `<rect x="350" y="150" width="100" height="320" rx="50" fill="url(#b)" transform="rotate(28 400 310)"/>` +
  `<g transform="rotate(28 400 310)"><circle cx="400" cy="230" r="30" fill="${p.ink}"/><circle cx="400" cy="230" r="16" fill="${p.accent}"/>` +
  `<rect x="375" y="290" width="50" height="22" rx="11" fill="${p.inkSoft}"/><rect x="375" y="326" width="50" height="22" rx="11" fill="${p.inkSoft}"/>` +
  `<rect x="385" y="170" width="30" height="8" rx="4" fill="#ff4d4d"/></g>`;

const powerBank: Motif = (p) => {
  const cells = [0, 1, 2, 3, 4, 5]
    .map(
      (i) =>
        `<rect x="${236 + (i % 3) * 58}" y="${196 + Math.floor(i / 3) * 96}" width="50" height="88" rx="4" fill="url(#s)"/>`,
    )
    .join("");
  return (
    `<rect x="224" y="184" width="190" height="210" rx="12" fill="${p.ink}"/>` +
    cells +
    `<rect x="420" y="220" width="150" height="250" rx="26" fill="url(#b)"/>` +
    `<rect x="440" y="250" width="110" height="12" rx="6" fill="#fff" opacity=".4"/>` +
    [0, 1, 2, 3]
      .map((i) => `<circle cx="${456 + i * 26}" cy="420" r="7" fill="${i < 3 ? p.accent : p.inkSoft}"/>`)
      .join("") +
    `<rect x="470" y="300" width="50" height="70" rx="10" fill="${p.ink}" opacity=".25"/>`
  );
};

const watch: Motif = (p) =>
  `<rect x="355" y="110" width="90" height="360" rx="30" fill="url(#b)"/>` +
  `<rect x="320" y="200" width="160" height="180" rx="44" fill="${p.ink}"/>` +
  `<rect x="336" y="216" width="128" height="148" rx="32" fill="url(#s)"/>` +
  `<circle cx="400" cy="290" r="46" fill="none" stroke="#fff" stroke-opacity=".35" stroke-width="10"/>` +
  `<path d="M400 244a46 46 0 0 1 ${Math.round(40 + p.variant * 6)} 62" fill="none" stroke="${p.accent}" stroke-width="10" stroke-linecap="round"/>` +
  `<rect x="480" y="260" width="10" height="40" rx="4" fill="${p.inkSoft}"/>`;

const headphones: Motif = (p) =>
  `<path d="M282 340V290a118 118 0 0 1 236 0v50" fill="none" stroke="${p.ink}" stroke-width="24" stroke-linecap="round"/>` +
  `<path d="M300 250a110 110 0 0 1 200 0" fill="none" stroke="url(#b)" stroke-width="12" stroke-linecap="round"/>` +
  `<rect x="236" y="300" width="92" height="150" rx="42" fill="url(#b)"/>` +
  `<rect x="472" y="300" width="92" height="150" rx="42" fill="url(#b)"/>` +
  `<rect x="306" y="318" width="34" height="114" rx="16" fill="${p.ink}"/>` +
  `<rect x="460" y="318" width="34" height="114" rx="16" fill="${p.ink}"/>` +
  `<circle cx="270" cy="375" r="12" fill="${p.accent}"/>`;

const speaker = (p: Palette, antenna: boolean): string =>
  (antenna ? `<path d="M520 190l40-90" stroke="url(#m)" stroke-width="8" stroke-linecap="round"/>` : "") +
  `<rect x="240" y="190" width="320" height="280" rx="40" fill="url(#b)"/>` +
  `<circle cx="340" cy="340" r="70" fill="${p.ink}"/>` +
  `<circle cx="340" cy="340" r="50" fill="${p.inkSoft}"/>` +
  `<circle cx="340" cy="340" r="18" fill="${p.ink}"/>` +
  `<rect x="440" y="240" width="80" height="30" rx="8" fill="url(#s)"/>` +
  `<circle cx="460" cy="320" r="14" fill="${p.accent}"/><circle cx="500" cy="320" r="14" fill="${p.inkSoft}"/>` +
  `<rect x="440" y="360" width="80" height="70" rx="10" fill="${p.ink}" opacity=".18"/>`;

const projector: Motif = (p) =>
  `<path d="M470 300L640 220v150z" fill="#fff" opacity=".35"/>` +
  `<rect x="210" y="280" width="300" height="160" rx="30" fill="url(#b)"/>` +
  `<circle cx="440" cy="360" r="54" fill="${p.ink}"/><circle cx="440" cy="360" r="36" fill="url(#s)"/>` +
  `<circle cx="428" cy="348" r="10" fill="#fff" opacity=".7"/>` +
  `<rect x="240" y="310" width="120" height="10" rx="5" fill="${p.ink}" opacity=".25"/>` +
  `<rect x="240" y="334" width="120" height="10" rx="5" fill="${p.ink}" opacity=".25"/>` +
  `<circle cx="250" cy="400" r="10" fill="${p.accent}"/>` +
  `<rect x="240" y="440" width="30" height="30" rx="6" fill="${p.ink}"/><rect x="450" y="440" width="30" height="30" rx="6" fill="${p.ink}"/>`;

const dumbbell: Motif = () =>
  `<rect x="300" y="322" width="200" height="36" rx="14" fill="url(#m)"/>` +
  `<rect x="230" y="250" width="56" height="180" rx="20" fill="url(#b)"/>` +
  `<rect x="514" y="250" width="56" height="180" rx="20" fill="url(#b)"/>` +
  `<rect x="280" y="278" width="34" height="124" rx="12" fill="url(#a)"/>` +
  `<rect x="486" y="278" width="34" height="124" rx="12" fill="url(#a)"/>` +
  `<rect x="190" y="318" width="44" height="44" rx="12" fill="url(#m)"/><rect x="566" y="318" width="44" height="44" rx="12" fill="url(#m)"/>`;

const kettlebell: Motif = (p) =>
  `<path d="M330 300v-70a70 70 0 0 1 140 0v70" fill="none" stroke="url(#b)" stroke-width="34"/>` +
  `<ellipse cx="400" cy="360" rx="130" ry="120" fill="url(#b)"/>` +
  `<rect x="270" y="455" width="260" height="15" rx="7" fill="${p.ink}" opacity=".35"/>` +
  `<rect x="345" y="330" width="110" height="56" rx="14" fill="url(#a)"/>` +
  `<text x="400" y="370" text-anchor="middle" font-family="system-ui,sans-serif" font-weight="800" font-size="30" fill="#fff">${12 + Math.round(p.variant * 4) * 2}</text>`;

const shoe: Motif = (p) =>
  `<path d="M210 440c0-60 10-110 40-150 40 20 90 30 120 10l40-40c40 50 110 90 190 100 40 5 60 30 60 60v20z" fill="url(#b)"/>` +
  `<path d="M200 440h470v10a20 20 0 0 1-20 20H220a20 20 0 0 1-20-20z" fill="#fff"/>` +
  `<path d="M200 430h470" stroke="${p.accent}" stroke-width="10"/>` +
  `<path d="M380 290l30 30M405 272l30 30M430 255l30 30" stroke="#fff" stroke-width="9" stroke-linecap="round"/>` +
  `<path d="M470 380c60 0 130 0 175 20" fill="none" stroke="${p.accent}" stroke-width="12" stroke-linecap="round"/>`;

const bike: Motif = (p) =>
  `<path d="M240 470h150M430 470h150" stroke="${p.ink}" stroke-width="18" stroke-linecap="round"/>` +
  `<path d="M300 465L345 260M320 380L500 330M500 465L530 215" fill="none" stroke="url(#b)" stroke-width="26" stroke-linecap="round"/>` +
  `<circle cx="470" cy="385" r="72" fill="${p.inkSoft}"/><circle cx="470" cy="385" r="52" fill="url(#m)"/><circle cx="470" cy="385" r="12" fill="${p.ink}"/>` +
  `<path d="M305 250c20-14 60-14 80 0l-8 12h-64z" fill="${p.ink}"/>` +
  `<path d="M530 215l-10-20h-44M530 215l40-10" fill="none" stroke="${p.ink}" stroke-width="14" stroke-linecap="round" stroke-linejoin="round"/>` +
  `<rect x="540" y="150" width="64" height="42" rx="8" fill="url(#s)" transform="rotate(-14 572 171)"/>`;

const block: Motif = (p) =>
  `<path d="M400 200l170 60-170 60-170-60z" fill="${p.light}"/>` +
  `<path d="M230 260l170 60v150l-170-60z" fill="url(#b)"/>` +
  `<path d="M570 260l-170 60v150l170-60z" fill="${p.body}" opacity=".8"/>` +
  `<path d="M570 260l-170 60v150l170-60z" fill="${p.ink}" opacity=".18"/>` +
  `<circle cx="300" cy="340" r="5" fill="${p.ink}" opacity=".3"/><circle cx="340" cy="380" r="4" fill="${p.ink}" opacity=".3"/><circle cx="470" cy="360" r="5" fill="${p.ink}" opacity=".25"/>`;

const roll: Motif = (p) =>
  `<rect x="230" y="260" width="320" height="170" rx="85" fill="url(#b)"/>` +
  `<ellipse cx="550" cy="345" rx="62" ry="85" fill="url(#a)"/>` +
  `<path d="M550 345m-44 0a44 62 0 1 1 88 0 40 55 0 1 1-68 0 30 40 0 1 1 46 0" fill="none" stroke="#fff" stroke-opacity=".6" stroke-width="6"/>` +
  `<path d="M300 270v150M${330 + Math.round(p.variant * 120)} 262v166" stroke="${p.ink}" stroke-opacity=".25" stroke-width="14"/>`;

const rope: Motif = (p) =>
  `<path d="M300 200c-40 120 -20 250 100 250s140-130 100-250" fill="none" stroke="url(#a)" stroke-width="10" stroke-linecap="round"/>` +
  `<rect x="270" y="110" width="50" height="120" rx="24" fill="url(#b)" transform="rotate(-12 295 170)"/>` +
  `<rect x="480" y="110" width="50" height="120" rx="24" fill="url(#b)" transform="rotate(12 505 170)"/>` +
  `<rect x="283" y="120" width="24" height="16" rx="6" fill="${p.ink}" transform="rotate(-12 295 170)"/>` +
  `<rect x="493" y="120" width="24" height="16" rx="6" fill="${p.ink}" transform="rotate(12 505 170)"/>`;

const scale: Motif = (p) =>
  `<path d="M250 470l40-130h220l40 130z" fill="${p.ink}" opacity=".9"/>` +
  `<path d="M262 460l36-112h204l36 112z" fill="url(#b)"/>` +
  `<rect x="360" y="370" width="80" height="34" rx="8" fill="url(#s)"/>` +
  `<text x="400" y="395" text-anchor="middle" font-family="system-ui,sans-serif" font-weight="700" font-size="20" fill="#fff">${60 + Math.round(p.variant * 20)}.4</text>`;

const bottle: Motif = (p) =>
  `<rect x="360" y="120" width="80" height="48" rx="14" fill="${p.ink}"/>` +
  `<rect x="372" y="160" width="56" height="30" fill="url(#m)"/>` +
  `<path d="M340 230a40 40 0 0 1 40-44h40a40 40 0 0 1 40 44v210a30 30 0 0 1-30 30h-60a30 30 0 0 1-30-30z" fill="url(#b)"/>` +
  `<rect x="340" y="290" width="120" height="${70 + Math.round(p.variant * 40)}" fill="url(#a)"/>` +
  `<rect x="360" y="210" width="12" height="220" rx="6" fill="#fff" opacity=".35"/>`;

const blender: Motif = (p) =>
  `<path d="M320 150h160l-20 210H340z" fill="#e8f4f8" opacity=".75"/>` +
  `<path d="M332 250h136l-8 110H340z" fill="url(#a)"/>` +
  `<path d="M480 190h30a10 10 0 0 1 10 10v90a10 10 0 0 1-10 10h-40" fill="none" stroke="${p.inkSoft}" stroke-width="12"/>` +
  `<rect x="312" y="134" width="176" height="26" rx="10" fill="${p.ink}"/>` +
  `<path d="M330 360h140l20 110H310z" fill="url(#b)"/>` +
  `<circle cx="400" cy="418" r="20" fill="${p.ink}"/><circle cx="400" cy="418" r="8" fill="${p.accent}"/>` +
  `<rect x="346" y="170" width="10" height="170" rx="5" fill="#fff" opacity=".6"/>`;

const mixer: Motif = (p) =>
  `<path d="M260 470v-20a20 20 0 0 1 20-20h260a20 20 0 0 1 20 20v20z" fill="url(#b)"/>` +
  `<rect x="260" y="200" width="80" height="240" rx="34" fill="url(#b)"/>` +
  `<path d="M280 160h200a60 60 0 0 1 60 60v10a30 30 0 0 1-30 30H300a40 40 0 0 1-40-40v-20a40 40 0 0 1 20-40z" fill="url(#b)"/>` +
  `<path d="M400 340h140l-14 80a20 20 0 0 1-20 16h-72a20 20 0 0 1-20-16z" fill="url(#m)"/>` +
  `<path d="M470 260v50" stroke="#9aa3ae" stroke-width="10"/>` +
  `<rect x="520" y="200" width="14" height="24" rx="5" fill="${p.accent}"/>` +
  `<rect x="300" y="280" width="10" height="120" rx="5" fill="#fff" opacity=".35"/>`;

const kettle: Motif = (p) =>
  `<path d="M300 470l20-230a40 40 0 0 1 40-36h80a40 40 0 0 1 40 36l20 230z" fill="url(#b)"/>` +
  `<path d="M480 260c60 0 70 110 10 150" fill="none" stroke="${p.ink}" stroke-width="22" stroke-linecap="round"/>` +
  `<path d="M310 300l-70-40 10 40 50 40z" fill="url(#b)"/>` +
  `<rect x="360" y="176" width="80" height="32" rx="14" fill="${p.ink}"/>` +
  `<path d="M290 470h220l-4-30H294z" fill="${p.ink}"/>` +
  `<rect x="372" y="260" width="16" height="150" rx="8" fill="url(#a)"/>` +
  `<path d="M360 160c-10-30 20-40 10-70M420 160c-10-30 20-40 10-70" fill="none" stroke="#fff" stroke-opacity="${(0.4 + p.variant * 0.3).toFixed(2)}" stroke-width="8" stroke-linecap="round"/>`;

const coffeeMaker: Motif = (p) =>
  `<path d="M270 140h230a20 20 0 0 1 20 20v310H290V230h-20z" fill="url(#b)"/>` +
  `<rect x="250" y="140" width="200" height="90" rx="20" fill="url(#b)"/>` +
  `<rect x="270" y="160" width="90" height="30" rx="8" fill="url(#s)"/>` +
  `<path d="M320 300h120v120a40 40 0 0 1-40 40h-40a40 40 0 0 1-40-40z" fill="${p.ink}"/>` +
  `<path d="M330 360h100v56a30 30 0 0 1-30 30h-40a30 30 0 0 1-30-30z" fill="#7a4a2a"/>` +
  `<path d="M440 320c40 0 40 80 0 80" fill="none" stroke="${p.ink}" stroke-width="14"/>` +
  `<circle cx="480" cy="180" r="12" fill="${p.accent}"/>`;

const toaster: Motif = (p) =>
  `<rect x="325" y="160" width="60" height="80" rx="8" fill="#e0a458"/><rect x="415" y="150" width="60" height="90" rx="8" fill="#d08c3e"/>` +
  `<path d="M240 270a50 50 0 0 1 50-50h220a50 50 0 0 1 50 50v170a30 30 0 0 1-30 30H270a30 30 0 0 1-30-30z" fill="url(#b)"/>` +
  `<rect x="310" y="215" width="90" height="12" rx="6" fill="${p.ink}"/><rect x="410" y="215" width="90" height="12" rx="6" fill="${p.ink}"/>` +
  `<rect x="520" y="300" width="40" height="20" rx="8" fill="${p.ink}"/>` +
  `<circle cx="400" cy="400" r="16" fill="url(#m)"/>` +
  `<path d="M260 290v120" stroke="#fff" stroke-opacity=".4" stroke-width="10" stroke-linecap="round"/>` +
  `<circle cx="300" cy="440" r="8" fill="${p.accent}"/>`;

const tower: Motif = (p) => {
  const slots = [0, 1, 2, 3, 4, 5]
    .map(
      (i) =>
        `<rect x="345" y="${250 + i * 30}" width="110" height="12" rx="6" fill="${p.ink}" opacity=".3"/>`,
    )
    .join("");
  return (
    `<rect x="310" y="140" width="180" height="330" rx="50" fill="url(#b)"/>` +
    `<ellipse cx="400" cy="160" rx="70" ry="14" fill="${p.ink}" opacity=".35"/>` +
    `<circle cx="400" cy="205" r="14" fill="${p.accent}"/>` +
    slots
  );
};

const vacuum: Motif = (p) =>
  `<ellipse cx="400" cy="420" rx="200" ry="60" fill="${p.ink}"/>` +
  `<ellipse cx="400" cy="400" rx="200" ry="60" fill="url(#b)"/>` +
  `<ellipse cx="400" cy="392" rx="70" ry="20" fill="${p.ink}" opacity=".25"/>` +
  `<circle cx="400" cy="378" r="12" fill="${p.accent}"/>` +
  `<path d="M230 380a180 50 0 0 1 60-30" fill="none" stroke="#fff" stroke-opacity=".5" stroke-width="8" stroke-linecap="round"/>`;

const cooler = (p: Palette, firstAid: boolean): string =>
  `<path d="M300 250v-40a30 30 0 0 1 30-30h140a30 30 0 0 1 30 30v40" fill="none" stroke="${p.ink}" stroke-width="18"/>` +
  `<rect x="220" y="240" width="360" height="230" rx="30" fill="url(#b)"/>` +
  `<rect x="220" y="240" width="360" height="56" rx="24" fill="#fff" opacity=".85"/>` +
  (firstAid
    ? `<rect x="360" y="330" width="80" height="100" rx="20" fill="#fff"/><path d="M400 350v60M370 380h60" stroke="${p.accent}" stroke-width="20"/>`
    : `<rect x="350" y="340" width="100" height="50" rx="12" fill="${p.ink}" opacity=".2"/>`);

const vase: Motif = (p) =>
  `<path d="M385 200c-10-60-40-90-70-110M405 200c10-50 40-80 80-90M395 200c0-50 10-90 0-130" fill="none" stroke="#5f7f4e" stroke-width="6" stroke-linecap="round"/>` +
  `<circle cx="315" cy="90" r="22" fill="url(#a)"/><circle cx="485" cy="110" r="26" fill="url(#a)"/><circle cx="395" cy="70" r="18" fill="${p.light}"/>` +
  `<path d="M360 200h80v30c0 30 70 60 70 140 0 60-40 100-110 100s-110-40-110-100c0-80 70-110 70-140z" fill="url(#b)"/>` +
  `<path d="M310 360c30 20 150 20 180 0" fill="none" stroke="${p.light}" stroke-width="10" opacity=".6"/>` +
  `<ellipse cx="400" cy="200" rx="40" ry="8" fill="${p.ink}" opacity=".4"/>`;

const diffuser: Motif = (p) =>
  `<path d="M400 200c-20-30 20-50 0-80M380 190c-30-20-10-50-30-70M420 190c30-20 10-50 30-70" fill="none" stroke="#fff" stroke-opacity=".75" stroke-width="10" stroke-linecap="round"/>` +
  `<path d="M380 220h40c70 60 110 140 110 200v20a30 30 0 0 1-30 30H300a30 30 0 0 1-30-30v-20c0-60 40-140 110-200z" fill="url(#b)"/>` +
  `<path d="M276 430h248" stroke="#ffc46b" stroke-width="14"/>` +
  `<ellipse cx="400" cy="222" rx="26" ry="6" fill="${p.ink}" opacity=".4"/>` +
  `<circle cx="${400 + Math.round(p.variant * 40 - 20)}" cy="380" r="10" fill="${p.light}"/>`;

const lamp: Motif = (p) =>
  `<path d="M320 130h160l50 130H270z" fill="url(#b)"/>` +
  `<path d="M275 255h250" stroke="#fff" stroke-opacity=".5" stroke-width="6"/>` +
  `<path d="M290 262h220l-30 20H320z" fill="#fff6d8" opacity=".8"/>` +
  `<rect x="392" y="260" width="16" height="170" fill="url(#m)"/>` +
  `<path d="M330 470c0-30 30-44 70-44s70 14 70 44z" fill="url(#m)"/>` +
  `<circle cx="400" cy="${320 + Math.round(p.variant * 60)}" r="10" fill="${p.accent}"/>`;

const candle: Motif = (p) =>
  `<path d="M400 150c-24 30-26 60 0 70 26-10 24-40 0-70z" fill="#ffb347"/><path d="M400 180c-10 14-10 28 0 32 10-4 10-18 0-32z" fill="#fff3c4"/>` +
  `<path d="M400 220v20" stroke="${p.ink}" stroke-width="5"/>` +
  `<rect x="300" y="230" width="200" height="240" rx="30" fill="url(#b)" opacity=".95"/>` +
  `<rect x="312" y="232" width="176" height="26" rx="10" fill="#fbf3e4"/>` +
  `<rect x="330" y="310" width="140" height="90" rx="8" fill="#fbf3e4"/>` +
  `<rect x="350" y="336" width="100" height="10" rx="5" fill="${p.ink}" opacity=".5"/><rect x="365" y="360" width="70" height="8" rx="4" fill="${p.accent}"/>`;

const mug: Motif = (p) =>
  `<path d="M470 300c70-10 80 110 0 110" fill="none" stroke="url(#b)" stroke-width="26"/>` +
  `<path d="M290 240h200v170a60 60 0 0 1-60 60h-80a60 60 0 0 1-60-60z" fill="url(#b)"/>` +
  `<ellipse cx="390" cy="240" rx="100" ry="18" fill="${p.ink}" opacity=".45"/>` +
  `<path d="M290 320h200" stroke="${p.light}" stroke-width="16" opacity=".7"/>` +
  `<path d="M360 200c-12-24 16-34 4-60M410 200c-12-24 16-34 4-60" fill="none" stroke="#fff" stroke-opacity=".6" stroke-width="8" stroke-linecap="round"/>`;

const bowls: Motif = (p) =>
  `<path d="M230 300h340a170 170 0 0 1-340 0z" fill="url(#b)"/>` +
  `<path d="M270 250h260a130 130 0 0 1-40 95H310a130 130 0 0 1-40-95z" fill="url(#a)"/>` +
  `<ellipse cx="400" cy="300" rx="170" ry="20" fill="${p.ink}" opacity=".35"/>` +
  `<path d="M260 330c20 60 80 100 140 100" fill="none" stroke="#fff" stroke-opacity=".45" stroke-width="10" stroke-linecap="round"/>`;

const picture: Motif = (p) =>
  `<rect x="260" y="110" width="280" height="350" rx="8" fill="url(#b)"/>` +
  `<rect x="282" y="132" width="236" height="306" fill="#fbf7ee"/>` +
  `<path d="M400 400V180" stroke="#4f7a52" stroke-width="6"/>` +
  [0, 1, 2, 3, 4]
    .map((i) => {
      const y = 200 + i * 40;
      const w = 70 - i * 6 + Math.round(p.variant * 10);
      return `<path d="M400 ${y + 20}c-${w / 2} -10-${w} -30-${w} -40 ${w / 2} 0 ${w} 20 ${w} 40zM400 ${y + 20}c${w / 2} -10 ${w} -30 ${w} -40-${w / 2} 0-${w} 20-${w} 40z" fill="#5f9464"/>`;
    })
    .join("");

const pillow: Motif = (p) =>
  `<path d="M250 210c50 20 250 20 300 0 20 70 20 180 0 250-50-20-250-20-300 0-20-70-20-180 0-250z" fill="url(#b)"/>` +
  `<path d="M300 260c40 10 160 10 200 0M300 400c40-10 160-10 200 0" fill="none" stroke="${p.light}" stroke-width="8" opacity=".6"/>` +
  `<circle cx="400" cy="335" r="12" fill="${p.accent}"/>`;

const board: Motif = (p) =>
  `<rect x="230" y="300" width="340" height="150" rx="40" fill="#8a5a3c"/>` +
  `<rect x="230" y="290" width="340" height="150" rx="40" fill="#a8754f"/>` +
  `<circle cx="530" cy="335" r="14" fill="#6b4329"/>` +
  `<path d="M280 340c60-20 150-20 210 0M290 390c50-14 130-14 190 0" fill="none" stroke="#8a5a3c" stroke-width="5"/>` +
  `<path d="M340 250h200l-40 40H340z" fill="url(#m)"/><rect x="250" y="246" width="100" height="28" rx="12" fill="${p.ink}"/>` +
  `<circle cx="${300 + Math.round(p.variant * 20)}" cy="360" r="26" fill="#f2c14e"/>`;

const tent: Motif = (p) =>
  `<path d="M400 150L190 470h420z" fill="url(#b)"/>` +
  `<path d="M400 150L340 470h120z" fill="${p.ink}" opacity=".8"/>` +
  `<path d="M400 150l-40 320h20z" fill="${p.accent}"/>` +
  `<path d="M400 150L610 470" stroke="${p.ink}" stroke-opacity=".3" stroke-width="8"/>` +
  `<path d="M400 150V110" stroke="${p.ink}" stroke-width="8" stroke-linecap="round"/>` +
  `<path d="M170 470h460" stroke="${p.ink}" stroke-width="8" stroke-linecap="round"/>`;

const lantern: Motif = (p) =>
  `<path d="M360 150a40 40 0 0 1 80 0" fill="none" stroke="${p.ink}" stroke-width="12"/>` +
  `<path d="M330 200h140l-20-40H350z" fill="url(#b)"/>` +
  `<circle cx="400" cy="310" r="${90 + Math.round(p.variant * 20)}" fill="#fff3b0" opacity=".35"/>` +
  `<rect x="345" y="200" width="110" height="210" rx="20" fill="#fff6d0"/>` +
  `<rect x="375" y="230" width="50" height="150" rx="20" fill="#ffd24d"/>` +
  `<path d="M345 230h110M345 380h110" stroke="${p.ink}" stroke-opacity=".3" stroke-width="6"/>` +
  `<path d="M320 470l20-60h120l20 60z" fill="url(#b)"/>`;

const backpack: Motif = (p) =>
  `<path d="M360 140a40 40 0 0 1 80 0" fill="none" stroke="${p.ink}" stroke-width="14"/>` +
  `<path d="M290 220a90 90 0 0 1 90-90h40a90 90 0 0 1 90 90v220a30 30 0 0 1-30 30H320a30 30 0 0 1-30-30z" fill="url(#b)"/>` +
  `<path d="M320 330h160v90a20 20 0 0 1-20 20H340a20 20 0 0 1-20-20z" fill="url(#a)"/>` +
  `<path d="M320 360h160" stroke="${p.ink}" stroke-opacity=".4" stroke-width="6"/>` +
  `<path d="M330 220c40-20 100-20 140 0" fill="none" stroke="${p.ink}" stroke-opacity=".3" stroke-width="8"/>` +
  `<rect x="388" y="250" width="24" height="40" rx="6" fill="${p.ink}" opacity=".6"/>`;

const chair: Motif = (p) =>
  `<path d="M290 470l220-200M510 470L290 270" stroke="${p.ink}" stroke-width="14" stroke-linecap="round"/>` +
  `<path d="M280 170h240v150H280z" fill="url(#b)"/>` +
  `<path d="M270 320h260l-20 60H290z" fill="url(#b)"/>` +
  `<path d="M280 170v150M520 170v150" stroke="${p.ink}" stroke-width="14" stroke-linecap="round"/>` +
  `<path d="M280 230h240" stroke="${p.accent}" stroke-width="14"/>`;

const helmet: Motif = (p) =>
  `<path d="M220 400c0-130 80-210 190-210s170 80 170 190c0 30-20 40-50 40H250c-20 0-30-8-30-20z" fill="url(#b)"/>` +
  `<path d="M300 260c30-30 70-40 110-40M300 320c40-30 100-40 160-30M460 230c30 20 60 60 70 110" fill="none" stroke="${p.ink}" stroke-opacity=".45" stroke-width="14" stroke-linecap="round"/>` +
  `<rect x="520" y="380" width="40" height="20" rx="8" fill="#ff4d4d"/>` +
  `<path d="M260 420c40 30 80 50 140 50" fill="none" stroke="${p.ink}" stroke-width="8"/>`;

const poles: Motif = (p) =>
  `<path d="M360 180L300 470M440 180l60 290" stroke="url(#m)" stroke-width="12" stroke-linecap="round"/>` +
  `<rect x="345" y="110" width="34" height="100" rx="14" fill="#b8875a" transform="rotate(12 362 160)"/>` +
  `<rect x="421" y="110" width="34" height="100" rx="14" fill="#b8875a" transform="rotate(-12 438 160)"/>` +
  `<path d="M320 360l-14 6M480 360l14 6" stroke="${p.accent}" stroke-width="14" stroke-linecap="round"/>` +
  `<rect x="330" y="220" width="40" height="16" rx="6" fill="url(#b)" transform="rotate(12 350 228)"/><rect x="430" y="220" width="40" height="16" rx="6" fill="url(#b)" transform="rotate(-12 450 228)"/>`;

const stove: Motif = (p) =>
  `<path d="M290 250h220v100a40 40 0 0 1-40 40H330a40 40 0 0 1-40-40z" fill="url(#b)"/>` +
  `<path d="M280 250h240" stroke="${p.ink}" stroke-width="14" stroke-linecap="round"/>` +
  `<path d="M510 280h50" stroke="${p.ink}" stroke-width="12" stroke-linecap="round"/>` +
  `<path d="M360 410c-10 20 10 30 0 40M400 405c-10 20 10 30 0 45M440 410c-10 20 10 30 0 40" fill="none" stroke="#ff8a3d" stroke-width="10" stroke-linecap="round"/>` +
  `<path d="M320 470l40-40h80l40 40" fill="none" stroke="url(#m)" stroke-width="12" stroke-linecap="round"/>` +
  `<path d="M370 230c-10-20 14-30 4-50M420 230c-10-20 14-30 4-50" fill="none" stroke="#fff" stroke-opacity=".6" stroke-width="8" stroke-linecap="round"/>`;

const easel: Motif = () =>
  `<path d="M400 120L300 470M400 120l100 350M400 120v350" stroke="#b8875a" stroke-width="14" stroke-linecap="round"/>` +
  `<rect x="290" y="170" width="220" height="170" rx="6" fill="#fbf7ee"/>` +
  `<path d="M300 330l60-70 40 40 50-60 50 90z" fill="url(#b)"/>` +
  `<circle cx="460" cy="210" r="18" fill="url(#a)"/>` +
  `<rect x="280" y="340" width="240" height="14" rx="4" fill="#8a5a3c"/>`;

// --- One drawing per demo product: these tell apart products that once shared one. ----

const drawingTablet: Motif = (p) =>
  `<path d="M190 420l70-170h350l-70 170z" fill="${p.ink}"/>` +
  `<path d="M282 270h300l-56 136H226z" fill="url(#s)" opacity=".85"/>` +
  `<path d="M300 380c40-60 90-20 130-60s70-30 90-10" fill="none" stroke="#fff" stroke-opacity=".7" stroke-width="6" stroke-linecap="round"/>` +
  `<path d="M470 470l150-230" stroke="url(#b)" stroke-width="18" stroke-linecap="round"/>` +
  `<path d="M470 470l-8 4 2-14" fill="${p.ink}"/><rect x="205" y="300" width="40" height="16" rx="6" fill="${p.accent}" transform="rotate(-67 225 308)"/>`;

const photoFrame: Motif = (p) =>
  `<path d="M340 440l-30 30M460 440l30 30" stroke="#8a5a3c" stroke-width="14" stroke-linecap="round"/>` +
  `<rect x="220" y="170" width="360" height="270" rx="10" fill="#c89b6d"/>` +
  `<rect x="244" y="194" width="312" height="222" fill="#bfe3f2"/>` +
  `<path d="M244 416l90-100 60 60 70-90 92 130z" fill="#6ea86f"/>` +
  `<circle cx="${480 - Math.round(p.variant * 50)}" cy="240" r="24" fill="#ffd34d"/>` +
  `<rect x="220" y="170" width="360" height="270" rx="10" fill="none" stroke="#8a5a3c" stroke-width="6"/>`;

const documentCamera: Motif = (p) =>
  `<rect x="250" y="440" width="300" height="30" rx="10" fill="url(#b)"/>` +
  `<rect x="330" y="396" width="200" height="44" fill="#fbf7ee" transform="rotate(-4 430 418)"/>` +
  `<path d="M280 440l40-200 140-40" fill="none" stroke="${p.inkSoft}" stroke-width="18" stroke-linecap="round" stroke-linejoin="round"/>` +
  `<circle cx="320" cy="240" r="16" fill="${p.ink}"/>` +
  `<rect x="440" y="180" width="110" height="56" rx="18" fill="url(#b)"/>` +
  `<circle cx="495" cy="236" r="20" fill="${p.ink}"/><circle cx="495" cy="236" r="9" fill="url(#s)"/>` +
  `<path d="M475 256l-40 140h120l-40-140z" fill="#fff" opacity=".25"/>`;

const chestStrap: Motif = (p) =>
  `<ellipse cx="400" cy="320" rx="230" ry="110" fill="none" stroke="url(#b)" stroke-width="26"/>` +
  `<rect x="320" y="370" width="160" height="80" rx="36" fill="${p.ink}"/>` +
  `<path d="M400 432c-30-18-44-32-44-46a18 18 0 0 1 44-8 18 18 0 0 1 44 8c0 14-14 28-44 46z" fill="${p.accent}"/>` +
  `<path d="M520 190l40-30 20 40 30-60" fill="none" stroke="${p.accent}" stroke-width="8" stroke-linecap="round" stroke-linejoin="round"/>`;

const foamRoller: Motif = (p) => {
  const knobs: string[] = [];
  for (let row = 0; row < 5; row++)
    for (let col = 0; col < 4; col++)
      knobs.push(
        `<circle cx="${340 + col * 36 + (row % 2) * 18}" cy="${190 + row * 54}" r="12" fill="${p.ink}" opacity=".2"/>`,
      );
  return (
    `<rect x="320" y="140" width="160" height="330" rx="20" fill="url(#b)"/>` +
    `<ellipse cx="400" cy="140" rx="80" ry="22" fill="url(#a)"/><ellipse cx="400" cy="140" rx="34" ry="9" fill="${p.ink}" opacity=".6"/>` +
    knobs.join("")
  );
};

const blanket: Motif = (p) =>
  `<rect x="230" y="360" width="340" height="100" rx="26" fill="url(#b)"/>` +
  `<rect x="250" y="280" width="300" height="90" rx="24" fill="url(#a)"/>` +
  `<rect x="270" y="210" width="260" height="80" rx="22" fill="url(#b)"/>` +
  `<path d="M300 210v80M360 210v80M440 210v80M500 210v80M270 390h300" stroke="${p.light}" stroke-width="10" opacity=".8"/>` +
  `<path d="M240 460v14M260 460v14M280 460v14M300 460v14M320 460v14" stroke="${p.ink}" stroke-opacity=".4" stroke-width="5"/>`;

const sleepingBag: Motif = (p) =>
  `<path d="M170 330c0-70 70-100 150-96l330 30c40 4 60 30 60 66s-20 62-60 66l-330 30c-80 4-150-26-150-96z" fill="url(#b)"/>` +
  `<ellipse cx="250" cy="330" rx="60" ry="70" fill="${p.ink}" opacity=".55"/><ellipse cx="250" cy="330" rx="36" ry="44" fill="${p.light}"/>` +
  `<path d="M330 300l320 30" stroke="url(#a)" stroke-width="10" stroke-linecap="round"/>` +
  `<path d="M400 250v164M480 256v152M560 262v140" stroke="${p.ink}" stroke-opacity=".2" stroke-width="8"/>`;

const resistanceBands: Motif = (p) =>
  `<ellipse cx="340" cy="320" rx="120" ry="90" fill="none" stroke="url(#a)" stroke-width="22" transform="rotate(-18 340 320)"/>` +
  `<ellipse cx="460" cy="330" rx="120" ry="90" fill="none" stroke="url(#b)" stroke-width="22" transform="rotate(14 460 330)"/>` +
  `<ellipse cx="400" cy="400" rx="110" ry="56" fill="none" stroke="${p.ink}" stroke-opacity=".75" stroke-width="18"/>`;

const hydrationVest: Motif = (p) =>
  `<path d="M300 140h50l50 90 50-90h50l40 80v230a20 20 0 0 1-20 20H280a20 20 0 0 1-20-20V220z" fill="url(#b)"/>` +
  `<path d="M400 230v240" stroke="${p.ink}" stroke-opacity=".35" stroke-width="8"/>` +
  `<rect x="290" y="250" width="70" height="130" rx="30" fill="#e8f4f8" opacity=".85"/><rect x="440" y="250" width="70" height="130" rx="30" fill="#e8f4f8" opacity=".85"/>` +
  `<rect x="310" y="230" width="30" height="30" rx="8" fill="${p.ink}"/><rect x="460" y="230" width="30" height="30" rx="8" fill="${p.ink}"/>` +
  `<path d="M270 410h260" stroke="url(#a)" stroke-width="16"/>`;

const shaker: Motif = (p) =>
  `<path d="M330 200h140l-16 250a20 20 0 0 1-20 20h-68a20 20 0 0 1-20-20z" fill="#e8f4f8" opacity=".8"/>` +
  `<path d="M338 300h124l-10 150a20 20 0 0 1-20 20h-64a20 20 0 0 1-20-20z" fill="url(#a)"/>` +
  `<path d="M356 260h24M356 300h24M356 340h24" stroke="${p.ink}" stroke-opacity=".5" stroke-width="5"/>` +
  `<rect x="320" y="160" width="160" height="50" rx="14" fill="url(#b)"/><path d="M370 160v-30h40v30" fill="url(#b)"/>` +
  `<path d="M470 180c40 0 40-50 0-50" fill="none" stroke="${p.ink}" stroke-width="12"/>`;

const portableBlender: Motif = (p) =>
  `<rect x="350" y="150" width="100" height="40" rx="12" fill="${p.ink}"/><path d="M380 150v-30a20 20 0 0 1 40 0v30" fill="none" stroke="${p.ink}" stroke-width="10"/>` +
  `<rect x="350" y="190" width="100" height="180" fill="#e8f4f8" opacity=".75"/>` +
  `<rect x="350" y="280" width="100" height="90" fill="url(#a)"/>` +
  `<path d="M380 366l20-14 20 14" fill="none" stroke="url(#m)" stroke-width="6"/>` +
  `<rect x="344" y="370" width="112" height="100" rx="20" fill="url(#b)"/>` +
  `<circle cx="400" cy="420" r="12" fill="${p.accent}"/><rect x="388" y="452" width="24" height="8" rx="3" fill="${p.ink}"/>`;

const smoothieBlender: Motif = (p) =>
  `<rect x="320" y="360" width="160" height="110" rx="30" fill="url(#b)"/>` +
  `<rect x="340" y="340" width="120" height="30" rx="8" fill="url(#m)"/>` +
  `<path d="M344 160h112l-14 180h-84z" fill="#e8f4f8" opacity=".8"/>` +
  `<path d="M350 230h100l-8 110h-84z" fill="url(#a)"/>` +
  `<rect x="360" y="180" width="10" height="140" rx="5" fill="#fff" opacity=".6"/>` +
  `<circle cx="400" cy="420" r="16" fill="${p.ink}"/>`;

const foodProcessor: Motif = (p) =>
  `<path d="M260 470l20-110h240l20 110z" fill="url(#b)"/>` +
  `<path d="M270 220h260l-20 140H290z" fill="#e8f4f8" stroke="${p.inkSoft}" stroke-opacity=".4" stroke-width="5"/>` +
  `<path d="M290 290h220l-10 70H300z" fill="url(#a)"/>` +
  `<rect x="260" y="200" width="280" height="30" rx="12" fill="${p.ink}"/>` +
  `<rect x="440" y="120" width="56" height="84" rx="8" fill="#e8f4f8" stroke="${p.inkSoft}" stroke-opacity=".5" stroke-width="5"/><rect x="434" y="110" width="68" height="20" rx="6" fill="url(#b)"/>` +
  `<circle cx="400" cy="420" r="18" fill="${p.ink}"/><circle cx="470" cy="420" r="10" fill="${p.accent}"/>`;

const juicer: Motif = (p) =>
  `<path d="M320 120h160l-40 80h-80z" fill="#e8f4f8" stroke="${p.inkSoft}" stroke-opacity=".5" stroke-width="6"/>` +
  `<rect x="340" y="196" width="120" height="160" rx="20" fill="#e8f4f8" stroke="${p.inkSoft}" stroke-opacity=".5" stroke-width="6"/>` +
  `<path d="M343 300h114v36a17 17 0 0 1-17 17h-80a17 17 0 0 1-17-17z" fill="url(#a)"/>` +
  `<path d="M400 206v140M380 226l40 20M380 266l40 20" stroke="url(#m)" stroke-width="10"/>` +
  `<path d="M456 320h60l-8 24h-52z" fill="${p.ink}"/>` +
  `<rect x="320" y="350" width="160" height="120" rx="26" fill="url(#b)"/><circle cx="400" cy="410" r="14" fill="${p.accent}"/>` +
  `<path d="M488 380h64l-8 90h-48z" fill="#fff" stroke="${p.inkSoft}" stroke-opacity=".5" stroke-width="4"/><path d="M492 412h56l-5 56h-46z" fill="url(#a)"/>`;

const handMixer: Motif = (p) =>
  `<path d="M380 330v110M420 330v110" stroke="url(#m)" stroke-width="8"/>` +
  `<ellipse cx="380" cy="445" rx="16" ry="26" fill="none" stroke="url(#m)" stroke-width="6"/><ellipse cx="420" cy="445" rx="16" ry="26" fill="none" stroke="url(#m)" stroke-width="6"/>` +
  `<path d="M250 280a60 60 0 0 1 60-60h220a40 40 0 0 1 40 40v30a40 40 0 0 1-40 40H310a60 60 0 0 1-60-50z" fill="url(#b)"/>` +
  `<path d="M300 220c0-60 40-80 120-80s120 20 120 80" fill="none" stroke="url(#b)" stroke-width="34"/>` +
  `<rect x="500" y="240" width="30" height="20" rx="6" fill="${p.accent}"/>`;

const wallHanging: Motif = (p) =>
  `<path d="M280 140l120-50 120 50" fill="none" stroke="${p.ink}" stroke-opacity=".6" stroke-width="4"/>` +
  `<rect x="260" y="134" width="280" height="16" rx="8" fill="#a8754f"/>` +
  `<path d="M290 150h220v200l-110 50-110-50z" fill="url(#b)"/>` +
  `<path d="M290 210h220M290 260h220M290 310h220" stroke="${p.light}" stroke-width="14" opacity=".8"/>` +
  `<path d="M330 360l70 30 70-30" fill="none" stroke="url(#a)" stroke-width="14"/>` +
  `<path d="M310 360v90M340 372v90M370 386v80M400 400v70M430 386v80M460 372v90M490 360v90" stroke="${p.light}" stroke-width="5"/>`;

const knifeBlock: Motif = (p) =>
  `<path d="M300 470l60-250h110l60 250z" fill="#a8754f"/>` +
  `<path d="M360 220h110" stroke="#6b4329" stroke-width="10"/>` +
  `<rect x="360" y="110" width="22" height="120" rx="10" fill="${p.ink}" transform="rotate(-12 371 230)"/>` +
  `<rect x="398" y="100" width="22" height="130" rx="10" fill="${p.ink}" transform="rotate(-6 409 230)"/>` +
  `<rect x="436" y="120" width="22" height="110" rx="10" fill="${p.ink}"/>` +
  `<path d="M330 440h170" stroke="#6b4329" stroke-opacity=".5" stroke-width="6"/>`;

const dinnerware: Motif = (p) =>
  `<ellipse cx="400" cy="450" rx="190" ry="28" fill="url(#b)"/><ellipse cx="400" cy="430" rx="190" ry="28" fill="url(#b)"/>` +
  `<ellipse cx="400" cy="410" rx="190" ry="28" fill="url(#b)"/><ellipse cx="400" cy="406" rx="130" ry="16" fill="${p.light}"/>` +
  `<path d="M300 330h200a100 70 0 0 1-200 0z" fill="url(#a)"/><ellipse cx="400" cy="330" rx="100" ry="14" fill="${p.ink}" opacity=".35"/>`;

const deskLamp: Motif = (p) =>
  `<ellipse cx="300" cy="455" rx="70" ry="18" fill="url(#b)"/>` +
  `<path d="M300 450l60-170 120-60" fill="none" stroke="url(#m)" stroke-width="16" stroke-linecap="round" stroke-linejoin="round"/>` +
  `<circle cx="360" cy="280" r="14" fill="${p.ink}"/>` +
  `<path d="M460 190l100 40-40 70-100-40z" fill="url(#b)"/>` +
  `<path d="M500 290l-40 180h200l-100-170z" fill="#fff6d8" opacity=".55"/>`;

const headlamp: Motif = (p) =>
  `<ellipse cx="400" cy="300" rx="190" ry="120" fill="none" stroke="url(#b)" stroke-width="28"/>` +
  `<path d="M400 180v-20" stroke="url(#b)" stroke-width="24"/>` +
  `<path d="M460 360l170 40v-120z" fill="#fff3b0" opacity=".6"/>` +
  `<rect x="330" y="330" width="140" height="90" rx="26" fill="${p.ink}"/>` +
  `<circle cx="430" cy="375" r="30" fill="#fff6d0"/><circle cx="430" cy="375" r="16" fill="#ffd24d"/>` +
  `<rect x="350" y="350" width="26" height="14" rx="5" fill="${p.accent}"/>`;

/**
 * What each product is drawn as: the first rule its name matches, named by
 * what it draws. Order matters ("bike computer" is a device, not a bike;
 * "portable blender" is not the jug blender). Every demo product has a
 * drawing of its own (product-image.test.ts holds that).
 */
const NAME_RULES: readonly (readonly [RegExp, string, Motif])[] = [
  [/headphone/, "headphones", headphones],
  [/radio/, "weather radio", (p) => speaker(p, true)],
  [/speaker/, "speaker", (p) => speaker(p, false)],
  [/document camera/, "document camera", documentCamera],
  [/projector/, "projector", projector],
  [/calculator/, "calculator", (p) => handheld(p, true)],
  [/bike computer/, "bike computer", (p) => handheld(p, false)],
  [/presenter|remote/, "presenter", remote],
  [/power bank/, "power bank", powerBank],
  [/heart rate/, "chest strap", chestStrap],
  [/tracker|watch/, "watch", watch],
  [/drawing tablet/, "drawing tablet", drawingTablet],
  [/photo frame/, "photo frame", photoFrame],
  [/\btablet/, "tablet", tablet],
  [/kettlebell/, "kettlebell", kettlebell],
  [/dumbbell/, "dumbbells", dumbbell],
  [/shoe/, "shoe", shoe],
  [/helmet/, "helmet", helmet],
  [/cycling|\bbike\b/, "bike", bike],
  [/yoga block/, "yoga block", block],
  [/foam roller/, "foam roller", foamRoller],
  [/sleeping bag/, "sleeping bag", sleepingBag],
  [/blanket/, "folded blanket", blanket],
  [/\bmat\b/, "rolled mat", roll],
  [/\bbands\b/, "resistance bands", resistanceBands],
  [/rope/, "jump rope", rope],
  [/\bscale\b/, "scale", scale],
  [/\bvest\b/, "hydration vest", hydrationVest],
  [/shaker/, "shaker", shaker],
  [/portable blender/, "portable blender", portableBlender],
  [/smoothie/, "personal blender", smoothieBlender],
  [/processor/, "food processor", foodProcessor],
  [/juicer/, "juicer", juicer],
  [/blender/, "blender", blender],
  [/bottle/, "bottle", bottle],
  [/hand mixer/, "hand mixer", handMixer],
  [/mixer/, "stand mixer", mixer],
  [/kettle/, "kettle", kettle],
  [/coffee/, "coffee maker", coffeeMaker],
  [/toaster/, "toaster", toaster],
  [/purifier/, "air purifier", tower],
  [/vacuum/, "robot vacuum", vacuum],
  [/first aid/, "first aid kit", (p) => cooler(p, true)],
  [/cooler/, "cooler", (p) => cooler(p, false)],
  [/diffuser/, "diffuser", diffuser],
  [/vase/, "vase", vase],
  [/headlamp/, "headlamp", headlamp],
  [/lantern/, "lantern", lantern],
  [/desk lamp/, "desk lamp", deskLamp],
  [/lamp/, "table lamp", lamp],
  [/candle/, "candle", candle],
  [/dinnerware/, "dinnerware", dinnerware],
  [/mug/, "mug", mug],
  [/bowl/, "bowls", bowls],
  [/wall hanging/, "wall hanging", wallHanging],
  [/print/, "framed print", picture],
  [/pillow|cushion/, "cushion", pillow],
  [/knife/, "knife block", knifeBlock],
  [/board/, "serving board", board],
  [/tent/, "tent", tent],
  [/backpack/, "backpack", backpack],
  [/chair/, "chair", chair],
  [/poles/, "trekking poles", poles],
  [/stove/, "stove", stove],
  [/easel/, "easel", easel],
];

/** What a product's picture draws ("hydration vest"), or null when no rule knows its name. */
export function drawingOf(name: string): string | null {
  const lower = name.toLowerCase();
  return NAME_RULES.find(([pattern]) => pattern.test(lower))?.[1] ?? null;
}

/** When no name rule matches (e.g. a new product), the category still gets a fitting picture. */
const CATEGORY_MOTIFS: Record<string, readonly Motif[]> = {
  electronics: [tablet, headphones, (p) => speaker(p, false), (p) => handheld(p, false)],
  fitness: [dumbbell, kettlebell, roll, bottle],
  "home appliances": [blender, kettle, toaster, mixer],
  "home goods": [vase, lamp, mug, candle],
  outdoor: [tent, lantern, backpack, bottle],
};

export function renderProductImage(product: ProductPictureSubject): string {
  const random = seededRandom(hashString(product.slug));
  const style = CATEGORY_STYLES[product.category] ?? FALLBACK_STYLE;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

  const hue = style.hue + Math.round(random() * 24 - 12);
  const [bodyHue, bodySat, bodyLight] = pick(style.bodies);
  const jitter = Math.round(random() * 12 - 6);
  const [accentHue, accentSat, accentLight] = pick(style.accents);
  const palette: Palette = {
    ink: hsl(222, 18, 18),
    inkSoft: hsl(222, 12, 34),
    body: hsl(bodyHue + jitter, bodySat, bodyLight),
    accent: hsl(accentHue + jitter, accentSat, accentLight),
    accentDark: hsl(accentHue + jitter, accentSat, accentLight - 14),
    light: hsl(bodyHue + jitter, bodySat * 0.6, Math.min(96, bodyLight + 26)),
    variant: random(),
  };
  const name = product.name.toLowerCase();
  const motif =
    NAME_RULES.find(([pattern]) => pattern.test(name))?.[2] ??
    pick(CATEGORY_MOTIFS[product.category] ?? (CATEGORY_MOTIFS.electronics as readonly Motif[]));

  const bodyTop = hsl(bodyHue + jitter, bodySat, Math.min(97, bodyLight + 14));
  const bodyBottom = hsl(bodyHue + jitter, bodySat, Math.max(8, bodyLight - 16));
  const glowX = 380 + Math.round(random() * 40);

  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${PICTURE_WIDTH} ${PICTURE_HEIGHT}" width="${PICTURE_WIDTH}" height="${PICTURE_HEIGHT}" role="img">` +
    `<title>${escapeXml(product.name)}</title>` +
    "<defs>" +
    `<linearGradient id="g" x2="1" y2="1"><stop stop-color="${hsl(hue, 48, 95)}"/><stop offset="1" stop-color="${hsl(hue + 14, 40, 82)}"/></linearGradient>` +
    `<radialGradient id="l"><stop stop-color="#fff" stop-opacity=".8"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>` +
    `<radialGradient id="d"><stop stop-color="${hsl(hue, 40, 20)}" stop-opacity=".35"/><stop offset="1" stop-color="${hsl(hue, 40, 20)}" stop-opacity="0"/></radialGradient>` +
    `<linearGradient id="b" x2="1"><stop stop-color="${bodyTop}"/><stop offset=".45" stop-color="${palette.body}"/><stop offset="1" stop-color="${bodyBottom}"/></linearGradient>` +
    `<linearGradient id="a" x2="1"><stop stop-color="${palette.accent}"/><stop offset="1" stop-color="${palette.accentDark}"/></linearGradient>` +
    `<linearGradient id="m" x2="1"><stop stop-color="#f5f7f9"/><stop offset=".5" stop-color="#c6cdd5"/><stop offset="1" stop-color="#8e97a3"/></linearGradient>` +
    `<linearGradient id="s" x2="1" y2="1"><stop stop-color="${hsl(accentHue, 70, 62)}"/><stop offset="1" stop-color="${hsl(accentHue + 40, 60, 38)}"/></linearGradient>` +
    "</defs>" +
    `<rect width="${PICTURE_WIDTH}" height="${PICTURE_HEIGHT}" fill="url(#g)"/>` +
    `<circle cx="${glowX}" cy="290" r="260" fill="url(#l)"/>` +
    `<ellipse cx="400" cy="474" rx="230" ry="26" fill="url(#d)"/>` +
    motif(palette) +
    `<text x="40" y="560" font-family="system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif" font-size="22" font-weight="700" letter-spacing="3" fill="${hsl(hue, 30, 28)}" fill-opacity=".75">${escapeXml(brandLabel(product.bandName).toUpperCase())}</text>` +
    "</svg>\n"
  );
}

/** HSL to #rrggbb: the most widely understood colour syntax in SVG renderers. */
function hsl(hue: number, saturation: number, lightness: number): string {
  const h = (((hue % 360) + 360) % 360) / 360;
  const s = Math.max(0, Math.min(100, saturation)) / 100;
  const l = Math.max(0, Math.min(100, lightness)) / 100;
  const channel = (n: number) => {
    const k = (n + h * 12) % 12;
    const value = l - s * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
