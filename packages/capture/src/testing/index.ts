/** Test and benchmark helpers (`@redline/capture/testing`): fixture server and fidelity measurement. */
export { type Comparison, comparePngs, renderOffline } from "./fidelity.ts";
export { type ExtraRoute, type FixtureServer, gradientPng, startFixtureServer } from "./fixture-server.ts";
