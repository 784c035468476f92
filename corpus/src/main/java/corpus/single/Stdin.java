package corpus.single;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** Reads its input line by line and answers each line. */
public final class Stdin {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        int n = 0;
        for (String line; (line = in.readLine()) != null; ) {
            n++;
            System.out.println(n + ": " + new StringBuilder(line).reverse());
        }
        System.out.println("lines " + n + " at " + System.nanoTime());
    }
}
