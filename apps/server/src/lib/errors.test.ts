import { describe, expect, it } from "vitest";
import { isBackendUnavailable, isUniqueViolation } from "./errors.ts";

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe("isBackendUnavailable", () => {
  it("recognises a connection refused, lost or timed out, also wrapped as drizzle wraps the driver's error", () => {
    expect(isBackendUnavailable(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe(true);
    expect(isBackendUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isBackendUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(
      isBackendUnavailable(withCode("terminating connection due to administrator command", "57P01")),
    ).toBe(true);
    expect(isBackendUnavailable(withCode("the database system is starting up", "57P03"))).toBe(true);
    const wrapped = new Error("Failed query: select 1", {
      cause: new AggregateError([withCode("connect ECONNREFUSED ::1:5432", "ECONNREFUSED")]),
    });
    expect(isBackendUnavailable(wrapped)).toBe(true);
  });

  it("recognises the S3 SDK's timeout and a store answering 5xx, not its 4xx", () => {
    const timeout = Object.assign(new Error("a request has exceeded the configured requestTimeout"), {
      name: "TimeoutError",
    });
    expect(isBackendUnavailable(timeout)).toBe(true);
    const slowDown = Object.assign(new Error("Please reduce your request rate."), {
      name: "SlowDown",
      $metadata: { httpStatusCode: 503 },
    });
    expect(isBackendUnavailable(slowDown)).toBe(true);
    const denied = Object.assign(new Error("Access Denied"), {
      name: "AccessDenied",
      $metadata: { httpStatusCode: 403 },
    });
    expect(isBackendUnavailable(denied)).toBe(false);
  });

  it("leaves every other failure a 500: a constraint, a syntax error, a plain bug", () => {
    expect(isBackendUnavailable(withCode("duplicate key value violates unique constraint", "23505"))).toBe(
      false,
    );
    expect(isBackendUnavailable(withCode('syntax error at or near "selec"', "42601"))).toBe(false);
    expect(isBackendUnavailable(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isBackendUnavailable(null)).toBe(false);
  });
});

describe("isUniqueViolation", () => {
  it("recognises a unique index refusing a write, bare or wrapped as drizzle wraps the driver's error", () => {
    const duplicate = withCode("duplicate key value violates unique constraint", "23505");
    expect(isUniqueViolation(duplicate)).toBe(true);
    expect(isUniqueViolation(new Error("Failed query: update users …", { cause: duplicate }))).toBe(true);
  });

  it("leaves every other failure alone: another constraint, a lost connection, a plain bug", () => {
    expect(isUniqueViolation(withCode("violates foreign key constraint", "23503"))).toBe(false);
    expect(isUniqueViolation(withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"))).toBe(false);
    expect(isUniqueViolation(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });
});
