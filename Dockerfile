# The Jantaku app: one uvicorn worker (tables live in process memory).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    JANTAKU_ENV=production \
    JANTAKU_HOME=/app \
    JANTAKU_HOST=0.0.0.0 \
    JANTAKU_PORT=8000

WORKDIR /app
RUN useradd --create-home --uid 10001 jantaku

# Dependencies first, so that code changes do not reinstall them.
COPY pyproject.toml README.md ./
COPY server/__init__.py server/__init__.py
RUN pip install --upgrade pip && pip install .

COPY server server
COPY migrations migrations
COPY alembic.ini ./
COPY web web
# The package goes to site-packages; migrations/, alembic.ini and web/ stay in /app
# (JANTAKU_HOME), where `jantaku` finds them.
RUN pip install --no-deps . && chown -R jantaku /app

USER jantaku
EXPOSE 8000
# `jantaku health` asks http://127.0.0.1:$JANTAKU_PORT$JANTAKU_ROOT_PATH/api/health: the
# check follows the port (and sub-path) the server is given; 503 (database down) fails it.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
    CMD ["jantaku", "health", "--timeout", "4"]
# `jantaku serve` runs the Alembic upgrade, then uvicorn.
CMD ["jantaku", "serve"]
