package corpus.single;

import corpus.Expect;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Calendar;
import java.util.Date;
import java.util.TimeZone;

/** Every clock a program reads: the natives, java.time's now-methods, Date, Calendar, the default zone. */
@Expect(orders = "rto", plainRunsDiffer = true)
public final class Clocks {
    public static void main(String[] args) {
        System.out.println("currentTimeMillis " + System.currentTimeMillis());
        System.out.println("nanoTime          " + System.nanoTime());
        System.out.println("Instant.now       " + Instant.now());
        System.out.println("LocalDateTime.now " + LocalDateTime.now());
        System.out.println("LocalDate.now     " + LocalDate.now());
        System.out.println("ZonedDateTime.now " + ZonedDateTime.now());
        System.out.println("OffsetDateTime    " + OffsetDateTime.now());
        System.out.println("Clock millis      " + Clock.systemUTC().millis());
        System.out.println("Clock instant     " + Clock.systemDefaultZone().instant());
        System.out.println("new Date          " + new Date().getTime());
        System.out.println("Calendar          " + Calendar.getInstance().getTimeInMillis());
        System.out.println("default zone      " + TimeZone.getDefault().getID() + " " + ZoneId.systemDefault());
        long start = System.nanoTime();
        long spins = 0;
        while (System.nanoTime() - start < 2_000_000) {
            spins++;
        }
        System.out.println("spins in 2ms      " + spins);
    }
}
