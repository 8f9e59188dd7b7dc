// calls.ts calls every operation of unitd's OpenAPI description through a
// client made of generated types alone: openapi-typescript writes api.d.ts
// from the live /openapi.json, openapi-fetch sends the requests, and tsc
// (strict) checks every field read below against those types. The Go test
// TestGeneratedTypeScriptClient (client/generated_test.go) generates the
// types, compiles this file and runs it against a live server named by
// UNITD_URL and UNITD_KEY. It exits non-zero and names the failed checks
// when an answer is not what it should be.
import createClient from "openapi-fetch";
import type { components, paths } from "./api.js";

type StreamLine = components["schemas"]["BatchStreamLine"];

const base = process.env.UNITD_URL;
const key = process.env.UNITD_KEY;
if (!base || !key) {
  throw new Error("UNITD_URL and UNITD_KEY name the server to call and its key");
}

const api = createClient<paths>({ baseUrl: base, headers: { Authorization: `Bearer ${key}` } });

const failures: string[] = [];
function check(what: string, ok: boolean, got: unknown): void {
  if (!ok) {
    const text = JSON.stringify(got) ?? String(got);
    failures.push(`${what}: got ${text.length > 400 ? text.slice(0, 400) + "…" : text}`);
  }
}

// GET /v1/convert
{
  const { data, error } = await api.GET("/v1/convert", { params: { query: { value: "12.5", from: "ft", to: "m" } } });
  check("convertGet 12.5 ft → m", data?.data.result.value === "3.81" && data.data.result.unit === "m" && data.data.exact, data ?? error);
}
// An error answers in the contract's shape, typed too.
{
  const { data, error, response } = await api.GET("/v1/convert", { params: { query: { value: "1", from: "fet", to: "m" } } });
  check(
    "convertGet fet",
    data === undefined && error?.error.code === "UNKNOWN_UNIT" && (error.error.suggestions ?? []).includes("ft") &&
      error.error.request_id === response.headers.get("X-Request-Id"),
    error,
  );
}

// POST /v1/convert
{
  const { data, error } = await api.POST("/v1/convert", { body: { value: "72", from: "degF", to: "degC", precision: 6, explain: true } });
  check(
    "convertPost 72 degF → degC",
    data?.data.result.value === "22.2222" && !data.data.exact && data.data.explain?.kind === "affine",
    data ?? error,
  );
}
// Digits beyond a double's survive: the value is decimal text.
{
  const { data, error } = await api.POST("/v1/convert", {
    body: { value: "0.1000000000000000055511151231257827", from: "m", to: "mm", precision: 50 },
  });
  check("convertPost keeps digits", data?.data.result.value === "100.0000000000000055511151231257827", data ?? error);
}

// POST /v1/batch: status tells a success from an error.
{
  const { data, error } = await api.POST("/v1/batch", {
    body: { conversions: [{ value: "12.5", from: "ft", to: "m" }, { value: "abc", from: "ft", to: "m" }], precision: 10 },
  });
  const [first, second] = data?.data ?? [];
  check("convertBatch meta", data?.meta.total === 2 && data.meta.succeeded === 1 && data.meta.failed === 1, data ?? error);
  check("convertBatch item 0", first?.status === "success" && first.result.value === "3.81", first);
  check("convertBatch item 1", second?.status === "error" && second.error.code === "INVALID_VALUE" && second.input.value === "abc", second);
}

// POST /v1/batch/stream: NDJSON both ways; each answer line is read as it
// arrives, typed as a BatchStreamLine.
{
  const rows = [
    { value: "12.5", from: "ft", to: "m" },
    { value: "abc", from: "ft", to: "m" },
    { quantity: "100 km/h", to: "m/s" },
  ] satisfies components["schemas"]["ConversionItem"][];
  const { data, error, response } = await api.POST("/v1/batch/stream", {
    params: { query: { precision: "6" } },
    body: rows.map((r) => JSON.stringify(r) + "\n").join(""),
    bodySerializer: (body) => body,
    headers: { "Content-Type": "application/x-ndjson" },
    parseAs: "stream",
  });
  const lines: StreamLine[] = [];
  if (data) {
    let rest = "";
    for await (const chunk of data.pipeThrough(new TextDecoderStream())) {
      rest += chunk;
      let nl;
      while ((nl = rest.indexOf("\n")) >= 0) {
        lines.push(JSON.parse(rest.slice(0, nl)) as StreamLine);
        rest = rest.slice(nl + 1);
      }
    }
  }
  check("convertStream answer", response.headers.get("Content-Type") === "application/x-ndjson" && lines.length === 4, lines.length ? lines : error);
  const values = lines.map((l) => ("status" in l && l.status === "success" ? l.result.value : "status" in l ? l.error.code : ""));
  check("convertStream items", JSON.stringify(values.slice(0, 3)) === JSON.stringify(["3.81", "INVALID_VALUE", "27.7778"]), values);
  const last = lines[3];
  check("convertStream meta", last !== undefined && "meta" in last && last.meta.total === 3 && last.meta.failed === 1, last);
}

// Discovery.
{
  const { data, error } = await api.GET("/v1/categories");
  check("listCategories", data?.meta.total === data?.data.length && !!data?.data.some((c) => c.id === "length" && c.base_unit === "m"), data?.meta ?? error);
}
{
  const { data, error } = await api.GET("/v1/categories/{category}", { params: { path: { category: "length" } } });
  check("getCategory", !!data?.data.units.some((u) => u.symbol === "ft" && u.definition.factor === "12" && u.definition.unit === "in"), data?.data.id ?? error);
}
{
  const { data, error } = await api.GET("/v1/units", { params: { query: { category: "speed", q: "km" } } });
  check("listUnits", !!data?.data.some((u) => u.symbol === "km/h"), data?.meta ?? error);
}
{
  // A symbol with a slash travels percent-encoded.
  const { data, error } = await api.GET("/v1/units/{unit}", { params: { path: { unit: "km/h" }, query: { locale: "de" } } });
  const unit = data?.data;
  check("getUnit km/h", unit !== undefined && "name" in unit && unit.symbol === "km/h" && unit.category === "speed" && !!unit.display_name?.long, unit ?? error);
}
{
  const { data, error } = await api.GET("/v1/units/{unit}", { params: { path: { unit: "kg*m/s^2" } } });
  const unit = data?.data;
  check("getUnit expression", unit !== undefined && "terms" in unit && unit.symbol === "kg*m/s^2" && unit.category === "force" && unit.definition.factor === "1" && unit.definition.unit === "kg*m*s^-2", unit ?? error);
}
{
  const { data, error } = await api.GET("/v1/substances", { params: { query: { q: "gluc" } } });
  check("listSubstances", !!data?.data.some((s) => s.id === "glucose"), data?.meta ?? error);
}
{
  const { data, error } = await api.GET("/v1/substances/{id}", { params: { path: { id: "C6H12O6" } } });
  check("getSubstance", data?.data.id === "glucose" && !!data.data.molar_mass?.value.endsWith(" g/mol"), data ?? error);
}
{
  const { data, error } = await api.GET("/v1/preferences", { params: { query: { category: "length", region: "GB" } } });
  check(
    "listPreferences",
    data?.meta.region === "GB" && !!data.data.some((p) => p.usage === "person-height" && p.units?.[0]?.unit === "ft+in"),
    data?.meta ?? error,
  );
}

// The account's own units (the key carries units:write).
{
  const smoot = {
    category: "length", symbol: "smoot", name: "smoot", plural: "smoots", system: "MIT",
    definition: { factor: "1.7018", unit: "m" }, exact: true,
    source: "Oliver R. Smoot's height, Harvard Bridge, 1958", examples: ["1 smoot = 1.7018 m"],
  };
  const put = await api.PUT("/v1/account/units/{symbol}", { params: { path: { symbol: "smoot" } }, body: smoot });
  check("putAccountUnit new", put.response.status === 201 && put.data?.data.symbol === "smoot" && put.data.data.revision === 1, put.data ?? put.error);
  const again = await api.PUT("/v1/account/units/{symbol}", { params: { path: { symbol: "smoot" } }, body: { ...smoot, plural: "smoots" } });
  check("putAccountUnit change", again.response.status === 200 && again.data?.data.revision === 2, again.data ?? again.error);
  const list = await api.GET("/v1/account/units");
  check("listAccountUnits", list.data?.meta.total === 1 && list.data.data[0]?.symbol === "smoot", list.data ?? list.error);
  const one = await api.GET("/v1/account/units/{symbol}", { params: { path: { symbol: "smoot" } } });
  check("getAccountUnit", one.data?.data.symbol === "smoot" && one.data.data.format === "json", one.data ?? one.error);
  const conv = await api.GET("/v1/convert", { params: { query: { value: "364.4", from: "my:smoot", to: "m" } } });
  check("convert my:smoot", conv.data?.data.result.value === "620.13592", conv.data ?? conv.error);
  const del = await api.DELETE("/v1/account/units/{symbol}", { params: { path: { symbol: "smoot" } } });
  check("deleteAccountUnit", del.data?.data.deleted === true && del.data.data.symbol === "smoot", del.data ?? del.error);
}

// Operations.
{
  const { data, error } = await api.GET("/v1/health");
  check("health", data?.status === "ok" && data.catalog.units > 0 && data.catalog.last_reload.ok, data ?? error);
}
{
  const { data, error, response } = await api.GET("/openapi.json");
  check("openapi", data?.openapi === "3.1.0", data?.openapi ?? error);
  const again = await api.GET("/openapi.json", { params: { header: { "If-None-Match": response.headers.get("ETag") ?? "" } } });
  check("openapi If-None-Match", again.response.status === 304, again.response.status);
}

if (failures.length > 0) {
  console.error(failures.join("\n"));
  process.exit(1);
}
console.log("every operation answered as its types say");
