package prefs

// Preference says which unit preference a conversion to auto chose, and
// why (UTS #35 Part 6, Unit Preferences). Its fields are read-only.
type Preference struct {
	// Quantity is CLDR's quantity of the source unit ("length").
	Quantity string
	// Usage is the usage asked for ("default" when none was), and
	// MatchedUsage the usage whose preferences were used, after the
	// fall-back by parts and to "default".
	Usage, MatchedUsage string
	// Region is the region the preferences were looked up for, and
	// RegionFrom how it was found: "region", "locale" (its region
	// subtag), "locale-rg", "locale-ms", "likely" (the likely region of
	// the locale's language) or "default" (001, neither was given).
	Region, RegionFrom string
	// Locale is the locale the region came from, if any.
	Locale string
	// MatchedRegion is the region whose preferences were used: Region, or
	// the region containing it nearest to it that has its own, up to 001.
	MatchedRegion string
	// Units is the list of preferences, largest first; Chosen indexes the
	// one taken. Reached is false when the value reached no threshold and
	// the last unit was taken for it.
	Units   []Entry
	Chosen  int
	Reached bool
	// Override is set when the locale's -u-mu- key chose the unit of a
	// temperature ("celsius"), which wins over the preferences.
	Override string
	// Source cites the data.
	Source string
	// substance is what the usage measures, when its units say so.
	substance string
}

// Substance is what the usage measures when its units say so
// (blood-glucose measures glucose), or "": a conversion to auto that
// crosses kinds converts through it unless the request names a substance.
func (p *Preference) Substance() string { return p.substance }

// Entry is one unit of a preference list.
type Entry struct {
	// Unit is the catalog unit ("ft+in"), CLDR its CLDR identifier
	// ("foot-and-inch").
	Unit, CLDR string
	// Geq is the threshold from which it is used, in GeqUnit: Unit, or
	// its largest part; "" for the last unit, which takes every smaller
	// value.
	Geq, GeqUnit string
	// Substance is what a unit of mass concentration is of ("glucose").
	Substance string
}

// Reason says in a sentence why the preference was chosen, and how the
// usage fell back when the quantity lacks the one asked for.
func (p *Preference) Reason() string {
	if p.Override != "" {
		return "the locale's -u-mu- key asks for " + p.Override + ", which wins over the preferences of temperature"
	}
	where := "for " + p.MatchedUsage + " in " + p.MatchedRegion
	var s string
	switch {
	case len(p.Units) == 1:
		s = p.Units[0].Unit + " is the only preference " + where
	case p.Reached:
		u := p.Units[p.Chosen]
		s = "the magnitude of the value reaches the threshold of " + u.Unit + ", " + u.Geq + " " + u.GeqUnit + ", the first preference " + where + " it reaches"
	default:
		u := p.Units[len(p.Units)-2]
		s = "the magnitude of the value is below every threshold " + where + " (the smallest is " + u.Geq + " " + u.GeqUnit + "), so the last preference applies"
	}
	if p.Usage != p.MatchedUsage {
		s += "; " + p.Quantity + " has no usage " + p.Usage + ", so " + p.MatchedUsage + " applies (UTS #35 drops a usage's last part, then falls back to default)"
	}
	return s
}

// entriesView lists the entries as the API shows them.
func (l *list) entriesView() []Entry {
	out := make([]Entry, len(l.entries))
	for i, e := range l.entries {
		geq := e.geq
		if geq == "" && i < len(l.entries)-1 {
			geq = "1"
		}
		out[i] = Entry{Unit: e.unit.name, CLDR: e.unit.id, Geq: geq, Substance: e.unit.substance}
		if geq != "" {
			out[i].GeqUnit = e.unit.target.Largest
		}
	}
	return out
}

// Set is the unit preferences of one quantity and usage: a list per set of
// regions, or, for a region, the one list that applies there.
type Set struct {
	// Category is the catalog category of the quantity's units.
	Category string
	Quantity string
	Usage    string
	Lists    []List
}

// List is the units of one set of regions, largest first. MatchedRegion
// is set when the list was looked up for a region.
type List struct {
	Regions       []string
	MatchedRegion string
	Units         []Entry
}

// Info describes the unit preferences.
type Info struct {
	Source, Version, Licence string
	// Region and RegionFrom are the region the lists were looked up
	// for and how it was found (see Preference), when one was asked.
	Region, RegionFrom string
}

// Sets lists the unit preferences, by quantity and usage in the data's
// order, for the category given (all when it is ""). With a region or a
// locale, each set holds the one list that applies there (through the
// containment of regions); else every list. Unknown regions and malformed
// locales are INVALID_REQUEST.
func (d *Data) Sets(category, region, locale string) (info Info, sets []Set, err error) {
	info = Info{Source: d.source, Version: d.version, Licence: d.licence}
	lookup := region != "" || locale != ""
	if lookup {
		if info.Region, info.RegionFrom, _, err = d.region(region, locale, false); err != nil {
			return info, nil, err
		}
	}
	for _, q := range d.quantities {
		if q.category == "" || (category != "" && q.category != category) {
			continue
		}
		for _, name := range q.order {
			u := q.usages[name]
			set := Set{Category: q.category, Quantity: q.id, Usage: name}
			if lookup {
				l, matched := d.listFor(u, info.Region)
				set.Lists = []List{{Regions: l.regions, MatchedRegion: matched, Units: l.view}}
			} else {
				for _, l := range u.lists {
					set.Lists = append(set.Lists, List{Regions: l.regions, Units: l.view})
				}
			}
			sets = append(sets, set)
		}
	}
	return info, sets, nil
}
