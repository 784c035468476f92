package corpus.single;

import corpus.Expect;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/** Every unseeded generator of the JDK. */
@Expect(orders = "rto", plainRunsDiffer = true)
public final class Randomness {
    public static void main(String[] args) {
        System.out.println("new Random        " + new Random().nextLong());
        System.out.println("Math.random       " + Math.random());
        System.out.println("SecureRandom      " + new SecureRandom().nextLong());
        byte[] seed = new SecureRandom().generateSeed(8);
        System.out.println("generateSeed      " + java.util.HexFormat.of().formatHex(seed));
        System.out.println("ThreadLocalRandom " + ThreadLocalRandom.current().nextInt());
        System.out.println("SplittableRandom  " + new SplittableRandom().nextLong());
        System.out.println("UUID              " + UUID.randomUUID());
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            list.add(i);
        }
        Collections.shuffle(list);
        System.out.println("shuffle           " + list);
    }
}
