"""gunicorn settings: workers from WEB_CONCURRENCY, bind from PORT, logs to stdout."""

import multiprocessing
import os

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", min(4, multiprocessing.cpu_count() * 2)))
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("LOG_LEVEL", "info")
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# Body size is bounded by the app (PAIRING_MAX_CONTENT_LENGTH); bound header sizes here.
limit_request_line = 8190
limit_request_fields = 100
