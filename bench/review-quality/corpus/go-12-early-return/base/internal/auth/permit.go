package auth

type User struct {
	Admin  bool
	Groups []string
}

// CanEdit reports whether the user may edit a document owned by group.
func CanEdit(u *User, group string) bool {
	allowed := false
	if u != nil {
		if u.Admin {
			allowed = true
		} else {
			for _, g := range u.Groups {
				if g == group {
					allowed = true
					break
				}
			}
		}
	}
	return allowed
}
