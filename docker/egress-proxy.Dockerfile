# The egress proxy of environment builds (Squid from Debian) for machines that can pull from a
# registry:
#   docker build -f docker/egress-proxy.Dockerfile -t hypofix/egress-proxy:1 docker/
# docker/build-egress-proxy-image-offline.sh builds the same contract without a registry:
# /usr/sbin/squid built with OpenSSL (squid-openssl: the GnuTLS `squid` does not check a TLS
# upstream's certificate), bash, the user `proxy` (Debian's uid 13) to run it as, the system CA
# list (add a company CA to /usr/local/share/ca-certificates and run update-ca-certificates in an
# image FROM this one), label org.hypofix.egress=squid-openssl. Hypofix writes the configuration
# at run time (src/sandbox/egress.ts); the image holds none.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends squid-openssl ca-certificates \
 && rm -rf /var/lib/apt/lists/* /etc/squid/squid.conf
ENV LANG=C.UTF-8
LABEL org.hypofix.egress=squid-openssl
USER proxy
CMD ["squid", "-v"]
