package apikey_test

import (
	"errors"
	"fmt"
	"time"

	"github.com/unitd/unitd/apikey"
)

func ExampleSet_Authenticate() {
	now := time.Now()
	key, rec, err := apikey.NewRecord("ci", apikey.EnvTest, now)
	if err != nil {
		panic(err)
	}
	set := apikey.NewSet([]apikey.Record{rec})

	got, err := set.Authenticate(key, apikey.EnvTest, now)
	fmt.Println(got.ID == rec.ID, err)
	_, err = set.Authenticate(key, apikey.EnvLive, now)
	fmt.Println(errors.Is(err, apikey.ErrWrongEnv))
	_, err = set.Authenticate("hunter2", apikey.EnvTest, now)
	fmt.Println(errors.Is(err, apikey.ErrMalformed))
	// Output:
	// true <nil>
	// true
	// true
}
