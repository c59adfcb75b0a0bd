package dev.loomcrawl.crawler.values;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;

/**
 * Which certificates https servers may show a crawl: those the JDK's trusted authorities vouch for (the
 * default); those and the ones a PEM file names ({@code --ca-cert}: a company's own authority, a staging site's
 * self-signed certificate), with the server's name checked as ever; or any at all ({@code --insecure}: neither
 * chain nor name checked, so a crawl cannot tell a site from whoever sits between).
 *
 * @param extra certificates trusted besides the JDK's authorities, as authorities
 * @param any whether every certificate is accepted, for any name
 */
public record TlsTrust(List<X509Certificate> extra, boolean any) {
    public static final TlsTrust JDK = new TlsTrust(List.of(), false);
    public static final TlsTrust ANY = new TlsTrust(List.of(), true);

    public TlsTrust {
        extra = List.copyOf(extra);
    }

    /**
     * The JDK's authorities and the certificates in {@code pem} (one or more {@code -----BEGIN CERTIFICATE-----}
     * blocks, or DER).
     *
     * @throws ConfigException naming {@code caCert}, when the file cannot be read or holds no certificate
     */
    public static TlsTrust alsoFrom(Path pem) {
        List<X509Certificate> certificates = new ArrayList<>();
        try (InputStream in = Files.newInputStream(pem)) {
            CertificateFactory.getInstance("X.509").generateCertificates(in)
                    .forEach(c -> certificates.add((X509Certificate) c));
        } catch (IOException e) {
            throw new ConfigException("caCert", pem, "cannot be read: " + pem + ": "
                    + (e instanceof NoSuchFileException ? "no such file" : FileErrors.reason(e)));
        } catch (CertificateException e) {
            certificates.clear();
        }
        if (certificates.isEmpty()) {
            throw new ConfigException("caCert", pem, "holds no certificate (PEM '-----BEGIN CERTIFICATE-----' blocks"
                    + " or DER): " + pem);
        }
        return new TlsTrust(certificates, false);
    }

    /** Whether this is the JDK's own trust, with nothing added or taken away. */
    public boolean isJdk() {
        return !any && extra.isEmpty();
    }
}
