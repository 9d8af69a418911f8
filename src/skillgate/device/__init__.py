"""Device authorization (RFC 8628 flavoured): how `svc login` signs a terminal in."""
