package accountweb

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
	"time"
)

// Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device
// Cookies"): a browser that signs in successfully gets a cookie that names
// the user and a random nonce, signed by the server. Presented again on a
// sign-in as that user, it makes the browser a known device, with its own
// allowance of failed attempts (see signIn).
//
// The signature is an HMAC-SHA256 keyed by the user's stored password hash,
// which only the store holds: every replica sharing the store checks it
// without a secret of its own, and setting a new password (a reset) turns
// every device cookie of the user into an unknown device's. A cookie
// signed for another user, or altered, counts for nothing.
const (
	deviceCookieName = "unitd_device"
	deviceCookiePath = "/account/signin" // the only request that reads it
	deviceTTL        = 180 * 24 * time.Hour
)

var deviceEncoding = base64.RawURLEncoding

// deviceMAC signs userID and nonce with a key derived from the user's
// stored password hash.
func deviceMAC(storedHash, userID, nonce string) []byte {
	key := sha256.Sum256([]byte("unitd device cookie\x00" + storedHash))
	m := hmac.New(sha256.New, key[:])
	m.Write([]byte(userID + "." + nonce))
	return m.Sum(nil)
}

// trustedDevice reports whether r carries a device cookie of userID, whose
// stored password hash is storedHash, and returns the device's nonce.
func (h *Handler) trustedDevice(r *http.Request, userID, storedHash string) (string, bool) {
	c, err := r.Cookie(deviceCookieName)
	if err != nil || len(c.Value) > 200 {
		return "", false
	}
	uid, rest, ok1 := strings.Cut(c.Value, ".")
	nonce, sig, ok2 := strings.Cut(rest, ".")
	if !ok1 || !ok2 || uid != userID || len(nonce) != 22 {
		return "", false
	}
	got, err := deviceEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, deviceMAC(storedHash, userID, nonce)) {
		return "", false
	}
	return nonce, true
}

// setDeviceCookie gives the browser a fresh device cookie for userID, as
// OWASP advises after every successful sign-in.
func (h *Handler) setDeviceCookie(w http.ResponseWriter, r *http.Request, userID, storedHash string) error {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return err
	}
	nonce := deviceEncoding.EncodeToString(b[:])
	http.SetCookie(w, &http.Cookie{
		Name:     deviceCookieName,
		Value:    userID + "." + nonce + "." + deviceEncoding.EncodeToString(deviceMAC(storedHash, userID, nonce)),
		Path:     deviceCookiePath,
		MaxAge:   int(deviceTTL.Seconds()),
		HttpOnly: true,
		Secure:   h.secure(r),
		SameSite: http.SameSiteStrictMode,
	})
	return nil
}
