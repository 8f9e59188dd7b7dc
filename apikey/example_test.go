package apikey_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/unitd/unitd/apikey"
)

func ExampleSet_Authenticate() {
	dir, err := os.MkdirTemp("", "keys")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	store := &apikey.Store{Path: filepath.Join(dir, "keys.json")}
	key, rec, err := store.Create("ci", apikey.EnvTest)
	if err != nil {
		panic(err)
	}
	recs, err := store.List()
	if err != nil {
		panic(err)
	}
	set := apikey.NewSet(recs)

	got, err := set.Authenticate(key, apikey.EnvTest, time.Now())
	fmt.Println(got.ID == rec.ID, err)
	_, err = set.Authenticate(key, apikey.EnvLive, time.Now())
	fmt.Println(errors.Is(err, apikey.ErrWrongEnv))
	_, err = set.Authenticate("hunter2", apikey.EnvTest, time.Now())
	fmt.Println(errors.Is(err, apikey.ErrMalformed))
	// Output:
	// true <nil>
	// true
	// true
}
