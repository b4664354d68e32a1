"""Tier 3, continued: nginx's settings under any name (the otherdata1 round), and supervisord's (the eighty-sixth
set). Same contract as shapes.py: (bucket, rule id, evidence line) or None.

nginx reads what an image, an installer or a compose file puts in `/etc/nginx/`, and people keep it under any name:
`singlepage.conf`, `vouch.yourdomain.com.conf`, `default.template.conf`, `ssl.conf` in an image's `rootfs/defaults/`,
`Example_Nginx_Config.txt` (the labelled sets). The settings of a server, `other` as `nginx.conf` is by name
(other.server-settings, principle 8), and known by nginx's own grammar: a block only nginx opens (`server {`,
`http {`, `events {`, `upstream name {`, `location /path {`) beside a directive ending in `;`, or two lines of
directives only nginx has (`proxy_set_header`, `add_header`, `ssl_certificate`, ...), as nginxconfig.io's snippets
are. Raised from `src` only (a chart's, role's or kustomization's copy stays `iac`); read for `.conf`, `.template`,
`.tmpl`, `.tpl` and `.txt` files, in the content tier's head (8 KiB at most), with bounded, linear patterns.
Caddy, Apache, HAProxy, Logstash, HCL and INI settings have none of them (no `;`-ended directive lines).
"""

from __future__ import annotations

import re

from gatekeeper.classify.shapes import evidence_line
from gatekeeper.lazy_pattern import lazy

_FLAGS = re.MULTILINE
_NAMES = (".conf", ".template", ".tmpl", ".tpl", ".txt")
_BLOCK = lazy(r"^[ \t]*(?:(?:server|http|events|stream|upstream[ \t]+[\w.:$-]{1,100})[ \t]*|"
              r"location[ \t]+[^ \t{;\n][^{;\n]{0,200})\{", _FLAGS)
_DIRECTIVE = lazy(r"^[ \t]*(?:listen|server_name|proxy_pass|proxy_set_header|try_files|fastcgi_pass|fastcgi_param|"
                  r"ssl_certificate(?:_key)?|ssl_protocols|add_header|client_max_body_size|worker_connections|"
                  r"worker_processes|gzip_types|root|return|rewrite|include|error_page|access_log|error_log|"
                  r"sendfile|keepalive_timeout|index)[ \t]+[^ \t;\n][^;\n]{0,1000};", _FLAGS)
# supervisord's INI settings (the eighty-sixth set: Laravel Sail's `runtimes/8.3/supervisord.conf`, a queue worker's
# `conf/worker.conf`): its own section (`[supervisord]`, `[program:x]`, `[eventlistener:x]`) beside a key only it reads.
_SUPERVISOR_NAMES = (".conf", ".ini", ".cfg")
_SUPERVISOR_SECTION = lazy(r"^[ \t]*\[(?:supervisord|program:[^\]\n]{1,200}|eventlistener:[^\]\n]{1,200})\][ \t]*\r?$",
                           _FLAGS)
_SUPERVISOR_KEY = lazy(r"^[ \t]*(?:nodaemon|autostart|autorestart|startsecs|startretries|stopwaitsecs|numprocs|"
                       r"process_name|stdout_logfile(?:_maxbytes)?|stderr_logfile(?:_maxbytes)?|redirect_stderr|"
                       r"stopasgroup|killasgroup)[ \t]*=", _FLAGS)
# Directives no other server's settings write: two of them make a snippet (an included security.conf) nginx's.
_NGINX_ONLY = lazy(r"^[ \t]*(?:proxy_set_header|proxy_pass|add_header|ssl_certificate(?:_key)?|ssl_protocols|"
                   r"ssl_ciphers|ssl_prefer_server_ciphers|ssl_session_\w{1,40}|fastcgi_pass|fastcgi_param|"
                   r"server_name|try_files|gzip_types|client_max_body_size|proxy_\w{1,40}_timeout)"
                   r"[ \t]+[^ \t;\n][^;\n]{0,1000};", _FLAGS)


def server_settings(name: str, text: str) -> tuple[str, str, str] | None:
    """(other, rule id, evidence line) when `text` is nginx's or supervisord's settings under a name no path rule
    knows, or None."""
    if name.lower().endswith(_SUPERVISOR_NAMES) and "[" in text \
            and (m := _SUPERVISOR_SECTION.search(text)) is not None and _SUPERVISOR_KEY.search(text) is not None:
        return "other", "other.content.supervisor-config", evidence_line(text, m)
    if not name.lower().endswith(_NAMES) or ";" not in text:
        return None
    if (m := _BLOCK.search(text)) is not None and _DIRECTIVE.search(text) is not None:
        return "other", "other.content.nginx-config", evidence_line(text, m)
    lines = _NGINX_ONLY.finditer(text)
    if (first := next(lines, None)) is not None and next(lines, None) is not None:
        return "other", "other.content.nginx-config", evidence_line(text, first)
    return None
