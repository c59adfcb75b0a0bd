package dev.loomcrawl.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Self-signed certificates made by the JDK's own {@code keytool}, for https servers that no authority vouches
 * for: a test site ({@link TestSite#https}), a webhook's receiver.
 */
public final class Certificates {
    /** The password of every key store made here. */
    public static final String PASSWORD = "changeit";

    private Certificates() {}

    /**
     * A key and its certificate.
     *
     * @param keyStore the key and the certificate, PKCS #12, under {@link #PASSWORD}
     * @param pem the certificate alone, as {@code --ca-cert} reads it
     */
    public record Certificate(Path keyStore, Path pem) {
        /** A TLS context that shows this certificate, for a server of the test's own. */
        public SSLContext serverContext() {
            try (InputStream in = Files.newInputStream(keyStore)) {
                KeyStore store = KeyStore.getInstance("PKCS12");
                store.load(in, PASSWORD.toCharArray());
                KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(store, PASSWORD.toCharArray());
                SSLContext context = SSLContext.getInstance("TLS");
                context.init(keys.getKeyManagers(), null, null);
                return context;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * {@code NAME.p12} and {@code NAME.pem} in {@code dir}: a self-signed certificate for {@code san} (as keytool's
     * {@code -ext san=} takes it: {@code ip:127.0.0.1}, {@code dns:other.test}), valid for two days.
     */
    public static Certificate selfSigned(Path dir, String name, String san) throws IOException, InterruptedException {
        Path store = dir.resolve(name + ".p12");
        Path pem = dir.resolve(name + ".pem");
        keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
                "-ext", "san=" + san, "-validity", "2", "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", PASSWORD, "-keypass", PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", name, "-keystore", store.toString(), "-storepass", PASSWORD,
                "-file", pem.toString());
        return new Certificate(store, pem);
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("keytool " + String.join(" ", args) + " failed: " + out);
        }
    }
}
