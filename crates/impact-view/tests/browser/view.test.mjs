// The end-to-end test of `impact view` in a real headless browser (Debian's chromium, driven
// by playwright-core). .ci/run runs it after building the `impact` binary in release:
//
//   node view.test.mjs [path/to/impact]     (default: target/release/impact)
//
// It saves its screenshot as docs/pictures/viewer.png, the README's, or where $SCREENSHOT
// says (CI keeps the committed one).
//
// It starts `impact view` on a free port with a scenes directory of its own, and checks what
// the issue asks: bodies are drawn, a single step is exactly one step of dt, a thrown disc
// leaves along the pointer's motion, a restitution-1 bullet comes back from a thin wall
// under `toi` (with an impact marker drawn) and passes it under `discrete`, a scene that
// fails to load shows its error on the page and in the terminal, malformed messages are
// logged and ignored, Host and Origin are checked, only the page is served; it saves the
// screenshot of the README and measures frames per second (median frame interval over 5 s)
// for the default demo and the rain of 1,000 discs.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../../..');
const binary = path.resolve(process.argv[2] || path.join(root, 'target/release/impact'));
const screenshot = path.resolve(process.env.SCREENSHOT || path.join(root, 'docs/pictures/viewer.png'));
const MIN_FPS = 20;

let passed = 0;
let failed = 0;
const results = {};

function check(name, ok, detail = '') {
  if (ok) {
    passed++;
    console.log(`ok      ${name}${detail ? ` (${detail})` : ''}`);
  } else {
    failed++;
    console.log(`FAILED  ${name}${detail ? ` (${detail})` : ''}`);
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/// Polls `f` until it returns a truthy value or `ms` pass; returns the last value.
async function until(f, ms = 5000, every = 20) {
  const end = Date.now() + ms;
  let v;
  while (Date.now() < end) {
    v = await f();
    if (v) return v;
    await sleep(every);
  }
  return v;
}

/// A raw HTTP exchange on the loopback address: the reply's status line and body.
function raw(port, request) {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1', () => s.write(request));
    let data = '';
    s.on('data', (d) => { data += d; });
    s.on('end', () => resolve(data));
    s.on('error', reject);
    s.setTimeout(5000, () => { s.destroy(); resolve(data); });
  });
}

// ---------- the scenes directory ----------

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'impact-view-test-'));
const scenes = path.join(tmp, 'scenes');
fs.mkdirSync(scenes);
// A thin wall (a millimetre thick at a bullet radius of 0.05) without gravity: a bullet of
// 5,000 units/s moves 83 units in a step, so only a CCD stepper sees it.
fs.writeFileSync(path.join(scenes, 'wall.json'), JSON.stringify({
  name: 'thin wall',
  gravity: [0, 0],
  stepper: { type: 'toi' },
  bodies: [
    { type: 'static', shape: { type: 'rectangle', half_width: 0.0005, half_height: 5 } },
    { type: 'static', shape: { type: 'segment', a: [-6, -5], b: [6, -5] } },
  ],
}));
fs.writeFileSync(path.join(scenes, 'bad.json'), '{"bodies": [{"shape": {"type": "circle", "radius": -1}}]}');
fs.writeFileSync(path.join(tmp, 'secret.json'), '{}');
fs.symlinkSync(path.join(tmp, 'secret.json'), path.join(scenes, 'out.json'));

// ---------- the server ----------

const server = spawn(binary, ['view', '--port', '0', '--scenes', scenes], { stdio: ['ignore', 'pipe', 'pipe'] });
let stdout = '';
let stderr = '';
server.stdout.on('data', (d) => { stdout += d; });
server.stderr.on('data', (d) => { stderr += d; });
const url = await until(() => (stdout.match(/impact view: (http:\/\/[^ ]+\/)/) || [])[1], 15000);
if (!url) {
  console.log(`FAILED  impact view did not start: ${stdout} ${stderr}`);
  process.exit(1);
}
const port = Number(new URL(url).port);
check('listens on the loopback address only, and prints it', new URL(url).hostname === '127.0.0.1', url);

const get = (p, headers = {}) => fetch(new URL(p, url), { headers });
async function state() {
  return (await get('/state')).json();
}

// Host and Origin (no DNS rebinding), and only the page.
{
  const bad = await raw(port, 'GET /state HTTP/1.1\r\nHost: rebound.example:' + port + '\r\n\r\n');
  check('a foreign Host is refused', bad.startsWith('HTTP/1.1 403'), bad.split('\r\n')[0]);
  const origin = await raw(port, `GET /state HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://evil.example\r\n\r\n`);
  check('a foreign Origin is refused', origin.startsWith('HTTP/1.1 403'), origin.split('\r\n')[0]);
  const ws = await raw(port, `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
    `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://evil.example:${port}\r\n\r\n`);
  check('a WebSocket from a foreign Origin is refused', ws.startsWith('HTTP/1.1 403'), ws.split('\r\n')[0]);
  for (const p of ['/../Cargo.toml', '/%2e%2e/Cargo.toml', '/examples/rain.json', '//etc/passwd', `/${scenes}/wall.json`]) {
    const r = await raw(port, `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    check(`only the page is served: ${p}`, r.startsWith('HTTP/1.1 404'), r.split('\r\n')[0]);
  }
}

// ---------- the browser ----------

// A fresh profile directory (playwright passes it as --user-data-dir).
const browser = await chromium.launchPersistentContext(path.join(tmp, 'profile'), {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1280, height: 760 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let exitCode = 1;
try {
  const page = browser.pages()[0] || await browser.newPage();
  page.on('pageerror', (e) => check('no script error on the page', false, String(e)));
  await page.goto(url);
  await page.waitForFunction(() => window.viewer.connected && window.viewer.frame && window.viewer.drawn.frames > 2, null, { timeout: 15000 });

  const V = (f, arg) => page.evaluate(f, arg);
  const scenesListed = await V(() => window.viewer.scene.scenes);
  check('the scenes directory is offered, its symlink out is not',
    scenesListed.includes('dir/wall.json') && !scenesListed.some((n) => n.includes('out.json')), scenesListed.filter((n) => n.startsWith('dir/')).join(' '));

  // Bodies are drawn: pixels on the canvas other than the background.
  const inked = await V(() => {
    const c = document.getElementById('canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - 0xfb) + Math.abs(d[i + 1] - 0xfa) + Math.abs(d[i + 2] - 0xf7) > 30) n++;
    return { n, bodies: window.viewer.drawn.bodies };
  });
  check('bodies are drawn', inked.n > 5000 && inked.bodies >= 35, `${inked.n} pixels, ${inked.bodies} bodies`);

  // Pause, then a single step: exactly one step, and dt more time.
  await page.click('#play');
  await until(async () => (await state()).paused);
  await sleep(300);
  const s0 = await state();
  await sleep(300);
  const s0b = await state();
  check('paused: no step taken', s0b.step === s0.step, `${s0.step} then ${s0b.step}`);
  await page.click('#stepbtn');
  await until(async () => (await state()).step !== s0.step);
  await sleep(400);
  const s1 = await state();
  check('a single step grows the step counter by exactly 1', s1.step === s0.step + 1, `${s0.step} -> ${s1.step}`);
  check('and the time by dt within 1e-12', Math.abs(s1.time - (s0.time + s0.dt)) <= 1e-12,
    `${s0.time} + ${s0.dt} -> ${s1.time}`);

  // Live switches keep the state: the same step and poses under each stepper and
  // broadphase; the solver's settings reach the world.
  {
    const before = await state();
    let kept = true;
    for (const [stepper, broadphase] of [['discrete', 'sap'], ['clamp', 'brute'], ['toi', 'rtree']]) {
      await page.selectOption('#stepper', stepper);
      await page.selectOption('#broadphase', broadphase);
      const s = await until(async () => {
        const q = await state();
        return q.stepper === stepper && q.broadphase === broadphase ? q : null;
      });
      kept = kept && s && s.step === before.step && JSON.stringify(s.bodies) === JSON.stringify(before.bodies);
    }
    check('switching the stepper and broadphase live keeps the state', kept);
    await page.fill('#substeps', '8');
    await page.locator('#substeps').dispatchEvent('change');
    await until(async () => (await state()).settings.substeps === 8);
    await page.fill('#hertz', '45');
    await page.locator('#hertz').dispatchEvent('change');
    const set = await until(async () => {
      const q = (await state()).settings;
      return q.substeps === 8 && q.contact_hertz === 45 ? q : null;
    });
    check('the solver settings reach the world', !!set, JSON.stringify(set));
  }

  // Slow motion: a quarter of real time takes a quarter of the steps.
  await page.selectOption('#speed', '0.25');
  await page.click('#play');
  await sleep(300);
  const slow0 = await state();
  await sleep(2000);
  const slow1 = await state();
  const rate = (slow1.step - slow0.step) / 2;
  check('slow motion at 1/4 takes about 15 steps a second', rate >= 11 && rate <= 17, `${rate} steps/s`);
  await page.selectOption('#speed', '1');
  await page.click('#play');
  await until(async () => (await state()).paused);

  // Overlays: contact points of the resting bodies, broadphase boxes; zoom and pan.
  await page.setChecked('#ov-contacts', true);
  await page.setChecked('#ov-boxes', true);
  await page.click('#stepbtn');
  const overlays = await until(() => V(() => {
    const d = window.viewer.drawn;
    return d.contacts > 0 && d.boxes >= 35 ? { contacts: d.contacts, boxes: d.boxes } : null;
  }));
  check('contact points and broadphase boxes are drawn when asked for', !!overlays, JSON.stringify(overlays));
  await page.setChecked('#ov-contacts', false);
  await page.setChecked('#ov-boxes', false);
  const view0 = await V(() => ({ ...window.viewer.view }));
  const [cx, cy] = await V(() => window.viewer.worldToScreen(0, 9));
  await page.mouse.move(cx, cy);
  await page.mouse.wheel(0, -300);
  await until(() => V((s) => window.viewer.view.scale > s * 1.2, view0.scale));
  await page.mouse.down({ button: 'right' });
  await page.mouse.move(cx + 100, cy, { steps: 4 });
  await page.mouse.up({ button: 'right' });
  const view1 = await V(() => ({ ...window.viewer.view }));
  check('the wheel zooms and a right-drag pans', view1.scale > view0.scale * 1.2 && view1.x < view0.x,
    `scale ${view0.scale.toFixed(1)} -> ${view1.scale.toFixed(1)}, x ${view0.x.toFixed(2)} -> ${view1.x.toFixed(2)}`);
  await page.keyboard.press('f');

  // Grab a disc and throw it straight up: its velocity afterwards is within 20 degrees of
  // the pointer's motion over its last 100 ms.
  await page.click('#play');
  await sleep(1500);
  const target = await V(() => {
    const v = window.viewer;
    const discs = [...v.bodies.values()].filter((b) => b.kind === 'dynamic' && b.shapes.length === 1 && b.shapes[0].core.length === 1);
    // The disc with the fewest bodies above it within 1.5 units either side, the highest of
    // those: nothing in the way of a throw straight up (a throw sideways may meet a
    // neighbour of the pile, which the settled scene puts in no fixed place).
    const above = (d) => [...v.frameBodies.entries()].filter(([id, f]) =>
      id !== d.id && f[2] > d.y && Math.abs(f[1] - d.x) < 1.5).length;
    let best = null;
    for (const b of discs) {
      const f = v.frameBodies.get(b.id);
      const d = { id: b.id, x: f[1], y: f[2] };
      d.above = above(d);
      if (!best || d.above < best.above || (d.above === best.above && d.y > best.y)) best = d;
    }
    return best;
  });
  const [sx, sy] = await V(([x, y]) => window.viewer.worldToScreen(x, y), [target.x, target.y]);
  await page.mouse.move(sx, sy);
  await page.mouse.down();
  const step = [0, -12]; // up on the screen: +y in the world
  for (let i = 1; i <= 12; i++) {
    await page.mouse.move(sx + step[0] * i, sy + step[1] * i);
    await sleep(16);
  }
  const grabbed = await state();
  check('the disc is grabbed through the mouse joint', grabbed.grab && grabbed.grab.body === target.id, JSON.stringify(grabbed.grab));
  await page.mouse.up();
  const stepAtRelease = (await state()).step;
  const thrown = await until(async () => {
    const s = await state();
    return s.step >= stepAtRelease + 1 && !s.grab ? s : null;
  });
  const body = thrown.bodies.find((b) => b.id === target.id);
  const motion = [step[0], -step[1]];
  const angle = (Math.atan2(body.linvel[1], body.linvel[0]) - Math.atan2(motion[1], motion[0])) * 180 / Math.PI;
  const off = Math.abs(((angle + 540) % 360) - 180);
  check('the thrown disc leaves within 20 degrees of the pointer\'s motion', off <= 20 && Math.hypot(...body.linvel) > 1,
    `velocity (${body.linvel.map((v) => v.toFixed(2)).join(', ')}), ${off.toFixed(1)} degrees off`);

  // A scene that fails to load: its error on the page and in the terminal.
  await page.selectOption('#scene', 'dir/bad.json');
  const shown = await until(() => V(() => !document.getElementById('error').hidden && document.getElementById('error').textContent));
  const badPath = fs.realpathSync(path.join(scenes, 'bad.json'));
  const reason = 'bodies[0].shape.radius: must be positive, got -1';
  check('a scene that fails to load shows its path and reason on the page', shown === `${badPath}: ${reason}`, shown);
  check('and in the terminal, as impact run prints it', stderr.includes(`impact: ${badPath}: ${reason}`));

  // Malformed messages are ignored with a logged reason; the server goes on.
  const before = (await state()).step;
  await V(() => { window.viewer.send('not json'); window.viewer.send('{"type": "explode"}'); window.viewer.send('{"type": "speed", "value": -1}'); });
  await until(() => (stderr.match(/ignored a message from the page/g) || []).length >= 3, 3000);
  check('malformed messages are logged with a reason', (stderr.match(/ignored a message from the page/g) || []).length >= 3 &&
    stderr.includes('unknown variant `explode`') && stderr.includes('speed.value: must be in'));
  check('and ignored: the world runs on', (await until(async () => (await state()).step > before + 5)) !== false);

  // Bullets at a thin wall: back under toi with an impact marker drawn, through under
  // discrete.
  async function fire(stepper) {
    await page.selectOption('#scene', 'dir/wall.json');
    await until(async () => (await state()).scene === 'dir/wall.json');
    await page.selectOption('#stepper', stepper);
    await until(async () => (await state()).stepper === stepper);
    // Restarted: no bullet left from an earlier shot.
    await page.click('#restart');
    await until(async () => (await state()).bodies.length === 0);
    await page.fill('#bullet-speed', '5000');
    await page.fill('#bullet-restitution', '1');
    await V(() => { window.viewer.drawn.impactMarkersTotal = 0; });
    const [ax, ay] = await V(() => window.viewer.worldToScreen(-3, 0));
    const [bx, by] = await V(() => window.viewer.worldToScreen(-2, 0));
    await page.keyboard.down('Shift');
    await page.mouse.move(ax, ay);
    await page.mouse.down();
    await page.mouse.move(bx, by, { steps: 4 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    // The bullet, seen a few steps after it was fired.
    return until(async () => {
      const s = await state();
      const b = s.bodies.find((q) => Math.hypot(...q.linvel) > 1000);
      return b && Math.abs(b.x + 3) > 100 ? { s, b } : null;
    }, 5000, 5);
  }

  const toi = await fire('toi');
  check('under toi the restitution-1 bullet comes back from the thin wall', toi && toi.b.x < -3 && toi.b.linvel[0] < -4999,
    toi ? `x ${toi.b.x.toFixed(1)}, vx ${toi.b.linvel[0].toFixed(1)}` : 'no bullet seen');
  const marker = await until(() => V(() => {
    const c = document.getElementById('canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let orange = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] > 230 && Math.abs(d[i + 1] - 0x7f) < 40 && d[i + 2] < 60) orange++;
    return window.viewer.drawn.impactMarkersTotal > 0 && orange > 20 ? orange : 0;
  }), 3000);
  check('and an impact marker is drawn at the wall', marker > 0, `${marker} marker pixels`);

  const discrete = await fire('discrete');
  check('under discrete the bullet passes through the wall', discrete && discrete.b.x > 3 && discrete.b.linvel[0] > 4999,
    discrete ? `x ${discrete.b.x.toFixed(1)}, vx ${discrete.b.linvel[0].toFixed(1)}` : 'no bullet seen');
  const judged = await until(async () => (await state()).stats.passed_through > 0, 2000);
  check('and the pass-through judge counts it', judged === true);

  // The screenshot of the README: the demo settled, a bullet fired at the thin wall in slow
  // motion and the view paused at the first step with an impact: the bullet's course through
  // that step, bouncing, with each impact's point, normal and time.
  await page.selectOption('#scene', 'demo');
  await until(async () => (await state()).scene === 'demo');
  await page.selectOption('#stepper', 'toi');
  await sleep(3000);
  await page.selectOption('#speed', '0.02');
  await page.fill('#bullet-speed', '3000');
  await V(() => { window.viewer.markers = []; });
  {
    const [ax, ay] = await V(() => window.viewer.worldToScreen(-7.5, 2.7));
    const [bx, by] = await V(() => window.viewer.worldToScreen(-6.5, 2.6));
    await page.keyboard.down('Shift');
    await page.mouse.move(ax, ay);
    await page.mouse.down();
    await page.mouse.move(bx, by, { steps: 3 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
  }
  await until(() => V(() => window.viewer.markers.length > 0), 5000, 5);
  await page.click('#play');
  await until(async () => (await state()).paused);
  await sleep(100);
  fs.mkdirSync(path.dirname(screenshot), { recursive: true });
  await page.screenshot({ path: screenshot });
  check('the screenshot is saved', fs.statSync(screenshot).size > 10000, path.relative(root, screenshot));
  await page.selectOption('#speed', '1');
  await page.click('#play');

  // Frames per second: the median interval between frames drawn, over 5 s.
  async function fps(scene) {
    await page.selectOption('#scene', scene);
    await until(async () => (await state()).scene === scene);
    const s = await state();
    if (s.paused) await page.click('#play');
    await sleep(1000);
    const times = await V(async () => {
      const start = performance.now();
      await new Promise((r) => setTimeout(r, 5000));
      return window.viewer.frameTimes.filter((t) => t >= start);
    });
    const gaps = times.slice(1).map((t, i) => t - times[i]).sort((a, b) => a - b);
    const median = gaps.length ? gaps[Math.floor(gaps.length / 2)] : Infinity;
    const after = await state();
    return { fps: 1000 / median, frames: times.length, msPerStep: after.stats.ms_per_step };
  }
  results.demo = await fps('demo');
  check(`the default demo runs at ${MIN_FPS} fps or more`, results.demo.fps >= MIN_FPS,
    `${results.demo.fps.toFixed(1)} fps, ${results.demo.frames} frames in 5 s, ${results.demo.msPerStep.toFixed(2)} ms per step`);
  // Sleeping: the settled demo falls asleep; /state lists the sleeping bodies and the page
  // draws them greyed.
  const asleep = await until(async () => (await state()).sleeping.length >= 10, 15000, 100);
  const grey = await V(() => {
    const c = document.getElementById('canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] === 0xb8 && d[i + 1] === 0xb8 && d[i + 2] === 0xb8) n++;
    return n;
  });
  check('the settled demo falls asleep, listed on /state and drawn greyed', asleep === true && grey > 500,
    `${(await state()).sleeping.length} bodies asleep, ${grey} grey pixels`);
  results.rain = await fps('rain_1000');
  check(`the rain of 1,000 discs runs at ${MIN_FPS} fps or more`, results.rain.fps >= MIN_FPS,
    `${results.rain.fps.toFixed(1)} fps, ${results.rain.frames} frames in 5 s, ${results.rain.msPerStep.toFixed(2)} ms per step`);
  exitCode = failed === 0 ? 0 : 1;
} catch (e) {
  check('the test ran to its end', false, e.stack || String(e));
} finally {
  await browser.close();
  server.kill();
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(`frames per second: demo ${results.demo ? results.demo.fps.toFixed(1) : '-'}, rain of 1,000 discs ${results.rain ? results.rain.fps.toFixed(1) : '-'}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? exitCode : 1);
