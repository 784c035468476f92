package demo;

import java.io.FileInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

/**
 * The bundled demo: everything it prints differs from run to run (the clock, random numbers,
 * identity-hash ordering of a HashSet, the file it reads) except under replay.
 */
public final class Demo {
    private static final class Token {
        private final String name;

        Token(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    public static void main(String[] args) throws Exception {
        System.out.println("started at     " + Instant.now());
        System.out.println("nanoTime       " + System.nanoTime());
        Random random = new Random();
        System.out.println("random ints    " + random.nextInt(1000) + " " + random.nextInt(1000) + " " + random.nextInt(1000));
        System.out.println("uuid           " + UUID.randomUUID());
        Set<Token> tokens = new HashSet<>();
        for (String n : new String[] {"alpha", "beta", "gamma", "delta", "epsilon", "zeta"}) {
            tokens.add(new Token(n));
        }
        System.out.println("hash order     " + tokens);
        System.out.println("an object      " + new Object());
        if (args.length > 0) {
            try (FileInputStream in = new FileInputStream(args[0])) {
                System.out.println("file says      " + new String(in.readAllBytes(), StandardCharsets.UTF_8).trim());
            }
        }
        int status = random.nextInt(3);
        System.out.println("exiting with   " + status);
        System.exit(status);
    }
}
