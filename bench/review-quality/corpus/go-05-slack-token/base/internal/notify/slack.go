package notify

import (
	"bytes"
	"encoding/json"
	"net/http"
)

type Notifier struct {
	client  *http.Client
	channel string
}
