"""HTTP plumbing: app state, middleware, error handlers, JSON responses."""
