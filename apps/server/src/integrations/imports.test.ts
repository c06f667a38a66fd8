/**
 * Outside services live one folder per service under integrations/, behind one port: the folder's
 * index.ts. These rules are read from the sources, so a shortcut fails here rather than in review:
 * - the rest of the server reaches a service only through its index.ts;
 * - a service's own SDK is imported by that service's folder alone (tests may use it to play the customer);
 * - integrations know no product module (modules/ call them, never the reverse), and lib/ knows neither.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const src = import.meta.dirname.replace(/\/integrations$/, "");
const integrations = path.join(src, "integrations");

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Every import specifier, `import type` included (a type is a dependency of the design too). */
function importsOf(file: string): string[] {
  const source = readFileSync(file, "utf8");
  return [...source.matchAll(/^(?:import|export)\b[^'"]*?from\s+"([^"]+)"|^import\s+"([^"]+)"/gms)].map(
    (match) => (match[1] ?? match[2])!,
  );
}

const services = readdirSync(integrations, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
/** The SDK packages a service's folder owns. */
const SDKS: Record<string, string[]> = {
  stripe: ["stripe"],
  github: ["@octokit/rest", "@octokit/webhooks-methods"],
};
/** A test, or the tests' own support code (src/testing/, which production never imports). */
const isTest = (file: string) =>
  /\.test\.tsx?$/.test(file) || file.startsWith(path.join(src, "testing") + path.sep);
const relative = (file: string) => path.relative(src, file);

describe("integrations are reached through their port", () => {
  const files = sourcesUnder(src);

  it("has a folder with an index.ts for every outside service", () => {
    expect(services).toEqual(expect.arrayContaining(["dns", "paypal", "stripe", "webhooks"]));
    for (const service of services)
      expect(files, service).toContain(path.join(integrations, service, "index.ts"));
  });

  it("lets the rest of the server import a service only through its index.ts", () => {
    const shortcuts = files.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => specifier.startsWith("."))
        .map((specifier) => path.resolve(path.dirname(file), specifier))
        .filter((target) => {
          const service = path.relative(integrations, target).split(path.sep)[0]!;
          if (
            !services.includes(service) ||
            target.startsWith(path.join(integrations, service) + path.sep) === false
          )
            return false;
          const home = path.join(integrations, service) + path.sep;
          return !file.startsWith(home) && target !== path.join(integrations, service, "index.ts");
        })
        .map((target) => `${relative(file)} → ${relative(target)}`),
    );
    expect(shortcuts).toEqual([]);
  });

  it("keeps each service's SDK inside its folder (outside tests)", () => {
    const leaks = files
      .filter((file) => !isTest(file))
      .flatMap((file) =>
        Object.entries(SDKS).flatMap(([service, packages]) =>
          file.startsWith(path.join(integrations, service) + path.sep)
            ? []
            : importsOf(file)
                .filter((specifier) => packages.includes(specifier))
                .map((specifier) => `${relative(file)} imports ${specifier}`),
        ),
      );
    expect(leaks).toEqual([]);
  });

  it("keeps integrations and lib/ free of product modules", () => {
    const wrongWay = [...sourcesUnder(integrations), ...sourcesUnder(path.join(src, "lib"))]
      .filter((file) => !isTest(file))
      .flatMap((file) =>
        importsOf(file)
          .filter((specifier) => specifier.startsWith("."))
          .map((specifier) => path.resolve(path.dirname(file), specifier))
          .filter(
            (target) =>
              target.startsWith(path.join(src, "modules") + path.sep) ||
              (file.startsWith(path.join(src, "lib") + path.sep) &&
                target.startsWith(integrations + path.sep)),
          )
          .map((target) => `${relative(file)} → ${relative(target)}`),
      );
    expect(wrongWay).toEqual([]);
  });
});
