// Runs the Pico firmware's logic under real MicroPython (the WebAssembly port
// from npm) in Node.
//
//   node run.mjs [test-script.py]      (default: fw_tests.py beside this file)
//
// Puts firmware/*.py, firmware/config.json, src/maxima_board/devices/mbproto.py (the shared
// protocol module, deployed to the Pico as mbproto.py) and vectors.json into
// /fw of the interpreter's in-memory file system, the fake machine/neopixel
// modules into /fakes, then executes the test script with /fw as the current
// directory. The heap is limited to 256 KiB, about what a Pico has free.
// Exit code: 0 when the script printed "MP-RESULT ... failed=0", else 1.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..");
const script = resolve(process.argv[2] ?? join(here, "fw_tests.py"));

let loadMicroPython;
try {
  ({ loadMicroPython } = await import("@micropython/micropython-webassembly-pyscript"));
} catch (e) {
  console.log("MP-MISSING @micropython/micropython-webassembly-pyscript is not installed (npm install in tests/micropython)");
  process.exit(3);
}

let output = "";
const print = (line) => {
  output += line + "\n";
  console.log(line);
};
const mp = await loadMicroPython({ heapsize: 256 * 1024, stdout: print, stderr: print });

const FS = mp.FS;
FS.mkdir("/fw");
FS.mkdir("/fakes");
const copyDir = (from, to, keep) => {
  for (const name of readdirSync(from)) {
    if (keep(name)) FS.writeFile(`${to}/${name}`, readFileSync(join(from, name)));
  }
};
copyDir(join(repo, "firmware"), "/fw", (n) => n.endsWith(".py") || n.endsWith(".json"));
FS.writeFile("/fw/mbproto.py", readFileSync(join(repo, "src", "maxima_board", "devices", "mbproto.py")));
FS.writeFile("/fw/vectors.json", readFileSync(join(here, "vectors.json")));
copyDir(join(here, "fakes"), "/fakes", (n) => n.endsWith(".py"));

try {
  mp.runPython("import sys, os\nsys.path.insert(0, '/fw')\nsys.path.insert(0, '/fakes')\nos.chdir('/fw')\n");
  mp.runPython(readFileSync(script, "utf8"));
} catch (e) {
  print("MP-ERROR " + String(e.message ?? e));
  process.exit(1);
}
process.exit(/MP-RESULT passed=\d+ failed=0\b/.test(output) ? 0 : 1);
