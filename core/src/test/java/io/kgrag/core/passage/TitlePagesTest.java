package io.kgrag.core.passage;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TitlePagesTest {
  @Test
  void aTitleNamesTheEntityItIsAbout() {
    assertTrue(TitlePages.names("Nigeria", "nigeria"));
    assertTrue(TitlePages.names("The Rank Organisation", "Rank Organisation"));
    assertTrue(TitlePages.names("Madonna (entertainer)", "Madonna"));
    assertTrue(TitlePages.names("Baure, Nigeria", "Baure"));
    assertTrue(TitlePages.names("Washington, D.C.", "Washington, D.C."));
    assertFalse(TitlePages.names("Nigeria", "Niger"));
    assertFalse(TitlePages.names("Baure, Nigeria", "Nigeria"));
    assertFalse(TitlePages.names("", "x"));
    assertFalse(TitlePages.names(null, "x"));
  }
}
