FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    PAIRING_RULES_DIR=/app/rules \
    PAIRING_SQLITE_PATH=/data/pairing.sqlite3

WORKDIR /app
COPY pyproject.toml README.md gunicorn.conf.py ./
COPY pairing_service ./pairing_service
COPY rules ./rules
RUN pip install --no-cache-dir . \
    && useradd --uid 10001 --no-create-home --shell /usr/sbin/nologin app \
    && mkdir /data && chown 10001 /data

# The SQLite database (set DATABASE_URL for PostgreSQL instead).
VOLUME ["/data"]

USER 10001
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('PORT', '8000') + '/healthz', timeout=2)"]
ENTRYPOINT ["gunicorn", "--config", "gunicorn.conf.py", "pairing_service:create_app()"]
