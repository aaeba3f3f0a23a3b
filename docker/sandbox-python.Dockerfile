# The Python sandbox images for machines that can pull from a registry, one per version:
#   docker build -f docker/sandbox-python.Dockerfile --build-arg PYTHON=3.13 \
#     -t hypofix/sandbox-python:2-py3.13 docker/
# (3.9, 3.11 and 3.13 are the versions Hypofix is tested on; tag 3.11 also as
# hypofix/sandbox-python:2, the default). docker/build-sandbox-image-offline.sh builds
# equivalent images without a registry. Contract: non-root uid 10001, workdir /work,
# python3 with pytest and coverage, a venv at /opt/hypofix/venv owned by 10001 and first
# on PATH, with system site packages (so setup commands install into it and pytest and
# coverage stay importable), labels org.hypofix.sandbox=python and org.hypofix.python.
ARG PYTHON=3.11
FROM python:${PYTHON}-slim
ARG PYTHON
RUN pip install --no-cache-dir pytest coverage \
 && groupadd --gid 10001 sandbox \
 && useradd --uid 10001 --gid 10001 --home-dir /work --no-create-home --shell /bin/sh sandbox \
 && mkdir -p /work && chown 10001:10001 /work \
 && python3 -m venv --system-site-packages /opt/hypofix/venv \
 && chown -R 10001:10001 /opt/hypofix
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 LANG=C.UTF-8 HOME=/tmp \
    VIRTUAL_ENV=/opt/hypofix/venv PATH=/opt/hypofix/venv/bin:/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin
LABEL org.hypofix.sandbox=python org.hypofix.python=${PYTHON}
USER 10001:10001
WORKDIR /work
CMD ["/bin/sh"]
