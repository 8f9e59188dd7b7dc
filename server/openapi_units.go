package server

import (
	"strconv"

	"github.com/unitd/unitd/apikey"
)

// The OpenAPI description of the units of accounts (myunits.go).

const unitsScopeDoc = "Reading needs any key of the account; changing needs a key with the scope `" + apikey.ScopeUnitsWrite + "` (`unitd keys create --scope " + apikey.ScopeUnitsWrite + "`, or the account page), else 403 INSUFFICIENT_SCOPE with `WWW-Authenticate: Bearer error=\"insufficient_scope\"`. A server without the account store answers 404."

// discoveryKeyDoc says what discovery does with a key.
const discoveryKeyDoc = "Public; with a Bearer key (optional, and then it must be valid: 401 otherwise), the key's account's units are found and listed too, marked `\"account\": true`, under the same filters, and the answer's ETag is the account's own."

// defineDoc describes define on the conversion routes.
const defineDoc = "Units defined for this request only, never stored: each a one-line definition (`\"smoot = 1.7018 m\"`; `≈` for a measured factor) or a unit's document in the catalog's schema (`AccountUnitDocument`). At most 20, 16 KiB together. They are checked by the catalog's rules (examples, cycles, sources, names the catalog or the account has are refused) and reached as `my:<symbol>` or by their plain names; a refused definition is 400 INVALID_REQUEST with `details.problems`."

var (
	defineParam = paramDoc{"define", "Units defined for this request only, one-line definitions separated by `;` (`smoot = 1.7018 m; pace = 0.75 m`), at most 4 KiB. " + defineDoc, false, strSchema, "smoot = 1.7018 m"}
	symbolParam = &paramDoc{"symbol", "The unit's symbol, with or without `my:`, percent-encoded.", true, strSchema, "smoot"}

	docAccountUnits = opDoc{
		id: "listAccountUnits", tag: "account units", summary: "List your account's units",
		description: "The units the key's account defined, by symbol: each document as stored, its revision, and the unit as served (`unit`, absent while it does not compile, such as after a catalog release removed what it refers to). " + unitsScopeDoc,
		ok:          "AccountUnitList", errors: []int{400, 404},
	}
	docAccountUnit = opDoc{
		id: "getAccountUnit", tag: "account units", summary: "Get one of your account's units and its history",
		description: "The unit as `listAccountUnits` shows it, with its last changes (`history`, newest first). " + unitsScopeDoc,
		pathParam:   symbolParam, ok: "AccountUnitResponse", errors: []int{400, 404},
	}
	docPutAccountUnit = opDoc{
		id: "putAccountUnit", tag: "account units", summary: "Define or change one of your account's units",
		description: "The body is the unit's document in the catalog's schema (`AccountUnitDocument`), as JSON (`application/json`) or YAML (`application/yaml`); its `symbol` must be the one in the path. It is checked by the catalog's loader and rules: every example converts as it says, no cycle, a source for every definition, no name that the catalog has (the unit would shadow it), sizes and counts within the account's limits (1,000 units, " + strconv.Itoa(8) + " KiB a document). A refusal is 400 INVALID_REQUEST whose `details.problems` lists every problem with its line and column. 201 for a new unit, 200 for a change; every server that shares the store serves it within seconds. The change is kept in the unit's history and the account's audit log. " + unitsScopeDoc,
		pathParam:   symbolParam, body: "AccountUnitDocument", yamlBody: true, ok: "AccountUnitResponse", created: true,
		errors: []int{400, 403, 404, 413, 415},
	}
	docDeleteAccountUnit = opDoc{
		id: "deleteAccountUnit", tag: "account units", summary: "Delete one of your account's units",
		description: "Deletes the unit, unless another of the account's units needs it (400 INVALID_REQUEST with `details.problems`). " + unitsScopeDoc,
		pathParam:   symbolParam, ok: "AccountUnitDeleted", errors: []int{400, 403, 404},
	}
)

// accountUnitSchemas are the component schemas of the units of accounts.
func accountUnitSchemas(closed func([]string, map[string]*schema) *schema, str func(string) *schema) map[string]*schema {
	timestamp := &schema{Type: typ("string"), Format: "date-time"}
	integer := &schema{Type: typ("integer"), Minimum: intp(1)}
	doc := &schema{Type: typ("object"), Required: []string{"category", "symbol", "name", "plural", "system", "exact", "source"},
		Description: "One unit in the catalog's schema (the keys of a unit of catalog/data/*.yaml) and its `category`: the id of a catalog category the unit joins (`length`), or a mapping that declares a category of the account's own whose base is this unit (`{id, name, dimension, si_factor}`).",
		Properties: map[string]*schema{
			"category": {Description: "A catalog category's id, or a mapping that declares one of the account's own.", OneOf: []*schema{
				str("The id of a catalog category (`length`)."),
				{Type: typ("object"), Required: []string{"id", "name", "dimension"}, Description: "A category of the account's own, whose base is this unit.",
					Properties: map[string]*schema{
						"id":          strSchema,
						"name":        strSchema,
						"description": strSchema,
						"dimension":   {Type: typ("object"), Description: "Exponents of base dimensions, whole numbers by base dimension: `{L: 1, T: -1}`."},
						"minimum":     str("The smallest value allowed, in the base unit."),
						"si_factor":   str("The factor from the base unit to the coherent SI unit of the dimension."),
					}},
			}},
			"symbol":  str("The unit's symbol (1–32 bytes); reached as `my:<symbol>`, and by itself where the catalog has no such name."),
			"name":    strSchema,
			"plural":  strSchema,
			"aliases": {Type: typ("array"), Items: strSchema},
			"symbols": {Type: typ("array"), Items: strSchema},
			"system":  strSchema,
			"definition": {Type: typ("object"), Description: "`{factor, unit}`, `{factor, offset, unit}` or `{to, from, unit}` (a formula of + - * / on x), as in the catalog.",
				Properties: map[string]*schema{
					"factor": str("Exact decimal or product/quotient of decimals (`0.3048`, `1/3`)."),
					"offset": str("Added after the factor, for affine units."),
					"unit":   str("The unit the definition is in."),
					"to":     str("Formula from this unit to `unit`, in x."),
					"from":   str("Formula from `unit` to this unit, in x."),
				}},
			"exact":       {Type: typ("boolean")},
			"source":      str("Where the definition comes from."),
			"description": strSchema,
			"prefixes":    {Description: "SI or binary prefixes the unit takes, as in the catalog."},
			"examples":    {Type: typ("array"), Items: strSchema, Description: "Tests: \"1 smoot = 1.7018 m\" (≈ for a rounded result)."},
		},
		Examples: []any{obj{"category": "length", "symbol": "smoot", "name": "smoot", "plural": "smoots", "system": "MIT",
			"definition": obj{"factor": "1.7018", "unit": "m"}, "exact": true, "source": "Oliver R. Smoot's height, Harvard Bridge, 1958",
			"examples": []string{"1 smoot = 1.7018 m"}}},
	}
	change := closed([]string{"revision", "action", "actor", "at"}, map[string]*schema{
		"revision": integer,
		"action":   {Type: typ("string"), Enum: []string{"put", "delete"}},
		"actor":    str("Who made the change: an e-mail address, `key <id>` or `operator`."),
		"at":       timestamp,
		"document": str("The document the change stored."),
	})
	unit := closed([]string{"symbol", "name", "format", "document", "revision", "created_at", "updated_at"}, map[string]*schema{
		"symbol":     str("The unit's symbol as declared."),
		"name":       str("`my:<symbol>`: the name that always reaches it."),
		"format":     {Type: typ("string"), Enum: []string{"json", "yaml"}},
		"document":   str("The document as stored."),
		"revision":   integer,
		"created_at": timestamp,
		"updated_at": timestamp,
		"unit":       withDescription(ref("Unit"), "The unit as served; absent while it does not compile."),
		"history":    {Type: typ("array"), Items: change, Description: "The unit's last changes, newest first."},
	})
	return map[string]*schema{
		"AccountUnitDocument": doc,
		"AccountUnit":         unit,
		"AccountUnitList": closed([]string{"data", "meta"}, map[string]*schema{"data": {Type: typ("array"), Items: ref("AccountUnit")},
			"meta": closed([]string{"total"}, map[string]*schema{"total": {Type: typ("integer"), Minimum: intp(0)}})}),
		"AccountUnitResponse": closed([]string{"data"}, map[string]*schema{"data": ref("AccountUnit")}),
		"AccountUnitDeleted": closed([]string{"data"}, map[string]*schema{"data": closed([]string{"symbol", "deleted"}, map[string]*schema{
			"symbol": strSchema, "deleted": {Type: typ("boolean")}})}),
	}
}
