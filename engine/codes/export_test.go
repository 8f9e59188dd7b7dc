package codes

// TableUnremembered is Table read from the tables, never remembered.
func (s *Set) TableUnremembered(system, code string) (Meaning, error) { return s.table(system, code) }

// Remembered counts the answers of Table the Set remembers.
func (s *Set) Remembered() int64 { return s.nMeanings.Load() }

// MaxRemembered is how many answers a Set remembers at most.
const MaxRemembered = maxMeanings
