package io.kgrag.core.exemplar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ExemplarSplitTest {
  private record Item(int id, String type) {}

  private static final Function<Item, String> TYPE = Item::type;

  /** 100 of type a, 37 of b, 2 of c, 1 of d, 5 without a type, interleaved. */
  private static List<Item> items() {
    List<Item> out = new ArrayList<>();
    int id = 0;
    for (int i = 0; i < 100; i++) {
      out.add(new Item(id++, "a"));
      if (i < 37) {
        out.add(new Item(id++, "b"));
      }
      if (i < 2) {
        out.add(new Item(id++, "c"));
      }
      if (i < 1) {
        out.add(new Item(id++, "d"));
      }
      if (i < 5) {
        out.add(new Item(id++, null));
      }
    }
    return out;
  }

  private static long count(List<Item> xs, String type) {
    return xs.stream().filter(x -> java.util.Objects.equals(x.type(), type)).count();
  }

  @Test
  void eachTypeGivesItsRoundedShareAndAtLeastOneWhenItHasTwo() {
    ExemplarSplit.Result<Item> r = ExemplarSplit.split(items(), TYPE, 0.2, 7);
    assertEquals(20, count(r.exemplars(), "a"));
    assertEquals(7, count(r.exemplars(), "b")); // 7.4
    assertEquals(1, count(r.exemplars(), "c")); // 0.4, but a type of two gives one
    assertEquals(0, count(r.exemplars(), "d")); // 0.2 of one
    assertEquals(1, count(r.exemplars(), null));
    assertEquals(80, count(r.heldOut(), "a"));
    assertEquals(1, count(r.heldOut(), "c"));
    // at most n - 1 when the share rounds to all of a type of two or more
    ExemplarSplit.Result<Item> most = ExemplarSplit.split(items(), TYPE, 0.9, 7);
    assertEquals(1, count(most.exemplars(), "c"));
    assertEquals(1, count(most.exemplars(), "d"));
    assertEquals(90, count(most.exemplars(), "a"));
  }

  @Test
  void theSidesPartitionTheInputInItsOrder() {
    List<Item> in = items();
    ExemplarSplit.Result<Item> r = ExemplarSplit.split(in, TYPE, 0.3, 3);
    assertEquals(in.size(), r.exemplars().size() + r.heldOut().size());
    Set<Item> all = new HashSet<>(r.exemplars());
    all.addAll(r.heldOut());
    assertEquals(new HashSet<>(in), all);
    for (List<Item> side : List.of(r.exemplars(), r.heldOut())) {
      for (int i = 1; i < side.size(); i++) {
        assertTrue(side.get(i - 1).id() < side.get(i).id(), "input order");
      }
    }
  }

  @Test
  void theSameSeedGivesTheSameSplitAndAnotherSeedAnother() {
    assertEquals(ExemplarSplit.split(items(), TYPE, 0.2, 7), ExemplarSplit.split(items(), TYPE, 0.2, 7));
    assertNotEquals(ExemplarSplit.split(items(), TYPE, 0.2, 7).exemplars(), ExemplarSplit.split(items(), TYPE, 0.2, 8).exemplars());
  }

  @Test
  void aTypesSplitDoesNotDependOnTheOtherTypes() {
    List<Item> onlyA = items().stream().filter(x -> "a".equals(x.type())).toList();
    List<Item> fromAll = ExemplarSplit.split(items(), TYPE, 0.2, 7).exemplars().stream().filter(x -> "a".equals(x.type())).toList();
    assertEquals(fromAll, ExemplarSplit.split(onlyA, TYPE, 0.2, 7).exemplars());
  }

  @Test
  void extremeAndBadFractions() {
    assertEquals(0, ExemplarSplit.split(items(), TYPE, 0, 7).exemplars().size());
    assertEquals(items().size(), ExemplarSplit.split(items(), TYPE, 1, 7).exemplars().size());
    assertThrows(IllegalArgumentException.class, () -> ExemplarSplit.split(items(), TYPE, 1.5, 7));
    assertThrows(IllegalArgumentException.class, () -> ExemplarSplit.split(items(), TYPE, Double.NaN, 7));
  }
}
