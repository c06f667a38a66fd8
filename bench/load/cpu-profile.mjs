// Imported into a server process (NODE_OPTIONS=--import …) by bench/load/profile.ts with PROFILE=1: samples
// its CPU from start to exit and writes a V8 .cpuprofile into PROFILE_DIR (default /tmp), for DevTools.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";

const session = new Session();
session.connect();
session.post("Profiler.enable");
session.post("Profiler.setSamplingInterval", { interval: 500 });
session.post("Profiler.start");
process.on("exit", () => {
  session.post("Profiler.stop", (error, result) => {
    if (!error)
      writeFileSync(
        `${process.env.PROFILE_DIR ?? "/tmp"}/server-${process.pid}.cpuprofile`,
        JSON.stringify(result.profile),
      );
  });
});
