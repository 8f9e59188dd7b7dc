package keys_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/unitd/unitd/server/keys"
)

func ExampleSet_Authenticate() {
	dir, err := os.MkdirTemp("", "keys")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	store := &keys.Store{Path: filepath.Join(dir, "keys.json")}
	key, rec, err := store.Create("ci", keys.EnvTest)
	if err != nil {
		panic(err)
	}
	recs, err := store.List()
	if err != nil {
		panic(err)
	}
	set := keys.NewSet(recs)

	got, err := set.Authenticate(key, keys.EnvTest, time.Now())
	fmt.Println(got.ID == rec.ID, err)
	_, err = set.Authenticate(key, keys.EnvLive, time.Now())
	fmt.Println(errors.Is(err, keys.ErrWrongEnv))
	_, err = set.Authenticate("hunter2", keys.EnvTest, time.Now())
	fmt.Println(errors.Is(err, keys.ErrMalformed))
	// Output:
	// true <nil>
	// true
	// true
}
