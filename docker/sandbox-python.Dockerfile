# The Python sandbox image for machines that can pull from a registry.
# docker/build-sandbox-image-offline.sh builds an equivalent image without one.
# Contract: non-root uid 10001, workdir /work, python3 with pytest and coverage.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-pytest python3-coverage \
 && rm -rf /var/lib/apt/lists/* /usr/share/doc/* /usr/share/man/* \
 && groupadd --gid 10001 sandbox \
 && useradd --uid 10001 --gid 10001 --home-dir /work --no-create-home --shell /bin/sh sandbox \
 && mkdir -p /work && chown 10001:10001 /work
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 LANG=C.UTF-8 HOME=/tmp
LABEL org.hypofix.sandbox=python
USER 10001:10001
WORKDIR /work
CMD ["/bin/sh"]
