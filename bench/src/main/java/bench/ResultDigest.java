package bench;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** A SHA-256 over a workload's results: the last line it prints, compared between runs by the bench. */
public final class ResultDigest {
    private final MessageDigest md;
    private long items;

    public ResultDigest() {
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public ResultDigest add(String s) {
        md.update(s.getBytes(StandardCharsets.UTF_8));
        md.update((byte) 0);
        items++;
        return this;
    }

    public ResultDigest add(long v) {
        return add(Long.toString(v));
    }

    public ResultDigest add(byte[] b) {
        md.update(b);
        items++;
        return this;
    }

    /** Prints {@code name items=N digest=HEX} on stdout. */
    public void print(String name) {
        System.out.println(name + " items=" + items + " digest=" + HexFormat.of().formatHex(md.digest()).substring(0, 16));
    }
}
