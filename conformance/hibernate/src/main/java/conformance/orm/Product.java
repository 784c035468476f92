package conformance.orm;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "product")
public class Product {
    @Id
    private String sku;

    @Column(nullable = false)
    private String category;

    @Column(nullable = false)
    private long priceCents;

    protected Product() {
    }

    public Product(String sku, String category, long priceCents) {
        this.sku = sku;
        this.category = category;
        this.priceCents = priceCents;
    }
}
