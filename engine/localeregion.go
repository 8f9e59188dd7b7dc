package engine

// LocaleRegion returns the region a locale stands for, as to=auto finds
// it (package prefs): its -u-ms- system, -u-rg- override or region subtag,
// else the likely region of its language; how says which ("locale",
// "locale-rg", "locale-ms", "likely", "default"). Free text reads a unit
// whose meaning depends on the region through it (package text). A
// catalog without unit preferences has no region data: "" and no error.
func (g *Graph) LocaleRegion(locale string) (region, how string, err error) {
	if locale == "" {
		return "", "", nil
	}
	p := g.extras().prefs
	if p == nil {
		return "", "", nil
	}
	r, how, err := p.LocaleRegion(locale, accelerated())
	if err != nil {
		return "", "", err
	}
	if how == "default" {
		return "", how, nil
	}
	return r, how, nil
}
