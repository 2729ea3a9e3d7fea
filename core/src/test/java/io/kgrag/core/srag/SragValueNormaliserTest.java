package io.kgrag.core.srag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SragValueNormaliserTest {
  @Test
  void yearsAndCountsBecomeIntegers() {
    assertEquals(1994L, ValueNormaliser.value("1994"));
    assertEquals(1994L, ValueNormaliser.value("  1994 "));
    assertEquals(1234567L, ValueNormaliser.value("1,234,567"));
    assertEquals(-3L, ValueNormaliser.value("-3"));
    assertEquals(7L, ValueNormaliser.value("+7"));
  }

  @Test
  void ratingsDecimalsAndPercentagesBecomeNumbers() {
    assertEquals(7.5, ValueNormaliser.value("7.5"));
    assertEquals(8.1, ValueNormaliser.value("8.1/10"));
    assertEquals(4.0, ValueNormaliser.value("4 / 5"));
    assertEquals(85.0, ValueNormaliser.value("85%"));
    assertEquals(1234.5, ValueNormaliser.value("1,234.5"));
    assertEquals(2500.0, ValueNormaliser.value("2.5e3"));
    assertEquals(0.5, ValueNormaliser.value(".5"));
  }

  @Test
  void textIsCleanedNotParsed() {
    assertEquals("Science Fiction", ValueNormaliser.value(" Science   Fiction "));
    assertEquals("1990s", ValueNormaliser.value("1990s"));
    assertEquals("good", ValueNormaliser.value("good"));
    assertEquals("1,23", ValueNormaliser.value("1,23"), "not a thousands separator");
    assertEquals("Am\u00e9lie", ValueNormaliser.value("Ame\u0301lie"), "NFC");
    assertNull(ValueNormaliser.value("   "));
    assertNull(ValueNormaliser.value(null));
  }

  @Test
  void aColumnTakesTheNarrowestKindOfAllItsValues() {
    assertEquals(EntityTable.Kind.INTEGER, EntityTable.Kind.of(List.of(1L, 2L)));
    assertEquals(EntityTable.Kind.DECIMAL, EntityTable.Kind.of(List.of(1L, 2.5)));
    assertEquals(EntityTable.Kind.TEXT, EntityTable.Kind.of(List.of(1L, "good")));
    assertEquals(EntityTable.Kind.INTEGER, EntityTable.Kind.of(Arrays.asList((Object) null)));
  }
}
