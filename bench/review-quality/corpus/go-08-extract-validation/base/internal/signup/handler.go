package signup

import (
	"encoding/json"
	"net/http"
	"strings"
)

type request struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

func Handle(w http.ResponseWriter, r *http.Request) {
	var req request
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "invalid JSON", http.StatusBadRequest)
		return
	}
	if !strings.Contains(req.Email, "@") {
		http.Error(w, "invalid email", http.StatusBadRequest)
		return
	}
	if len(req.Password) < 12 {
		http.Error(w, "password too short", http.StatusBadRequest)
		return
	}
	w.WriteHeader(http.StatusCreated)
}
