#!/usr/bin/env python3
"""Independent evaluation questions for MetaQA (kb.txt) and FB15k-237.

Written without reading the product's parser or any benchmark question file:
the wordings below are our own, and every gold answer is computed here,
directly from the triples.

Run from the repository root:

    python3 bench/ownwords/make_questions.py --data ../shared/data --out bench/ownwords

Standard library only; deterministic for a given --seed (default 2026).
"""

import argparse
import collections
import io
import json
import os
import random
import sys
import tarfile

MAX_ANSWERS = 60

# ----------------------------------------------------------------------------
# shared helpers
# ----------------------------------------------------------------------------

FILMS = ["films", "movies", "movies", "pictures"]
FILM = ["film", "movie", "movie", "picture"]

NUM_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


IMPERATIVES = ("list", "name", "give", "tell", "show", "count", "remove")


def style(rng, text):
    """Make a filled template look typed: sometimes all lower case, sometimes
    without the question mark, sometimes with a full stop after a command.
    Fragments ("X release year") are left as they are."""
    if rng.random() < 0.28:
        text = text.lower()
    if text.endswith("?"):
        if rng.random() < 0.35:
            text = text[:-1]
    elif text.split()[0].lower() in IMPERATIVES and rng.random() < 0.2:
        text = text + "."
    return text


class Maker:
    """Fills templates and records which templates were used per type."""

    def __init__(self, rng, kg):
        self.rng = rng
        self.kg = kg
        self.used_templates = collections.defaultdict(set)

    def pick(self, templates, multi_role=False):
        """Templates starting with 'P|' use a possessive or compound like
        "X's films" / "X movies" that is ambiguous for a person with several
        roles (director and writer, say); skip them for such people."""
        cands = [t for t in templates if not (multi_role and t.startswith("P|"))]
        t = self.rng.choice(cands)
        return t

    def make(self, qtype, hops, templates, slots, answers, multi_role=False):
        t = self.pick(templates, multi_role)
        self.used_templates[qtype].add(t)
        s = dict(slots)
        s.setdefault("films", self.rng.choice(FILMS))
        s.setdefault("film", self.rng.choice(FILM))
        text = t[2:] if t.startswith("P|") else t
        text = text.format(**s)
        text = text[0].upper() + text[1:]
        text = style(self.rng, text)
        return {
            "question": text,
            "answers": list(answers),
            "type": qtype,
            "hops": hops,
            "kg": self.kg,
        }


def interleave(rng, target, gens):
    """Round-robin over sub-generators until `target` questions are made."""
    its = [iter(g) for g in gens]
    out = []
    active = list(range(len(its)))
    while len(out) < target and active:
        for i in list(active):
            if len(out) >= target:
                break
            q = next(its[i], None)
            if q is None:
                active.remove(i)
                continue
            out.append(q)
    return out


def shuffled(rng, items):
    items = sorted(items)
    rng.shuffle(items)
    return items


def words(s):
    return s.split()


# ----------------------------------------------------------------------------
# MetaQA
# ----------------------------------------------------------------------------

DIR, WRI, ACT = "directed_by", "written_by", "starred_actors"
PERSON_RELS = (DIR, WRI, ACT)

ROLE = {
    DIR: {
        "noun": "director",
        "past": ["directed", "made", "directed", "was behind the camera for"],
        "pp": ["directed", "made", "directed", "helmed"],
        "base": ["direct", "make", "direct"],
        "credit": "directing",
    },
    ACT: {
        "noun": "actor",
        "past": ["acted in", "appeared in", "starred in", "was in", "had a role in"],
        "pp": ["acted in", "appeared in", "starred in", "been in", "had a role in"],
        "base": ["act in", "appear in", "star in", "play in"],
        "credit": "acting",
    },
    WRI: {
        "noun": "writer",
        "past": ["wrote", "penned", "wrote", "got a writing credit on"],
        "pp": ["written", "penned", "written", "written the script for"],
        "base": ["write", "pen", "write"],
        "credit": "writing",
    },
}

GENRE_ADJ = {
    "Drama": "drama", "Comedy": "comedy", "Horror": "horror", "Action": "action",
    "Thriller": "thriller", "Crime": "crime", "War": "war", "Adventure": "adventure",
    "Documentary": "documentary", "Western": "western", "Musical": "musical",
    "Fantasy": "fantasy", "Mystery": "mystery", "Romance": "romance",
    "Animation": "animated", "Family": "family", "Sport": "sports",
    "Biography": "biographical",
}
GENRE_PL = {
    "Drama": "dramas", "Comedy": "comedies", "Horror": "horror movies",
    "Action": "action movies", "Thriller": "thrillers", "Crime": "crime films",
    "War": "war films", "Adventure": "adventure films", "Documentary": "documentaries",
    "Western": "westerns", "Musical": "musicals", "Fantasy": "fantasy films",
    "Mystery": "mysteries", "Romance": "romances", "Animation": "animated films",
    "Family": "family films", "Sport": "sports films", "Biography": "biopics",
}


class MetaKB:
    def __init__(self, path):
        self.fwd = collections.defaultdict(lambda: collections.defaultdict(set))
        self.inv = collections.defaultdict(lambda: collections.defaultdict(set))
        self.movies = set()
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if not line:
                    continue
                h, r, t = line.split("|")
                self.fwd[r][h].add(t)
                self.inv[r][t].add(h)
                self.movies.add(h)
        self.persons = set()
        for r in PERSON_RELS:
            self.persons |= set(self.inv[r])
        kinds = collections.defaultdict(set)
        for m in self.movies:
            kinds[m].add("movie")
        for p in self.persons:
            kinds[p].add("person")
        for r, k in (("has_genre", "genre"), ("in_language", "language"),
                     ("has_tags", "tag"), ("release_year", "year")):
            for t in self.inv[r]:
                kinds[t].add(k)
        self.kinds = kinds
        self.lower_names = collections.Counter(n.lower() for n in kinds)

    # relation helpers ------------------------------------------------------
    def films_of(self, rel, person):
        return set(self.inv[rel].get(person, ()))

    def of_film(self, rel, movie):
        return set(self.fwd[rel].get(movie, ()))

    def roles(self, p):
        return [r for r in PERSON_RELS if p in self.inv[r]]

    def year(self, m):
        ys = self.fwd["release_year"].get(m)
        if not ys or len(ys) != 1:
            return None
        return int(next(iter(ys)))

    # anchor eligibility ----------------------------------------------------
    def clean_name(self, s):
        """Several words, a single kind of entity, no brackets, and no other
        entity that differs only in letter case."""
        if len(words(s)) < 2 or len(s) < 5:
            return False
        if any(c in s for c in "[](){}|"):
            return False
        if len(self.kinds[s]) != 1:
            return False
        if self.lower_names[s.lower()] != 1:
            return False
        return True

    def good_movie(self, m):
        return (m in self.movies and self.clean_name(m) and self.year(m) is not None
                and len(self.fwd[DIR].get(m, ())) <= 2)

    def people(self, rel, lo=2, hi=25):
        return [p for p in self.inv[rel]
                if self.clean_name(p) and lo <= len(self.inv[rel][p]) <= hi]

    def merged(self, m):
        """A title with several release years is several films under one name
        (e.g. three films called 'Running Scared'); chains through it would
        join unrelated people."""
        return len(self.fwd["release_year"].get(m, ())) > 1

    def clean_films(self, films):
        return not any(self.merged(m) for m in films)

    def multi_role(self, p):
        return len(self.roles(p)) > 1

    def good_tag(self, t):
        return (self.clean_name(t) and t == t.lower()
                and self.lower_names[t.lower()] == 1)


def ok_list(ans):
    return 1 <= len(ans) <= MAX_ANSWERS


def metaqa_questions(kb, rng):
    mk = Maker(rng, "metaqa")
    out = []

    def rv(rel):
        """Random verb forms for a role."""
        r = ROLE[rel]
        return {"past": rng.choice(r["past"]), "pp": rng.choice(r["pp"]),
                "base": rng.choice(r["base"]), "noun": r["noun"],
                "credit": r["credit"]}

    good_movies = sorted(m for m in kb.movies if kb.good_movie(m))

    # ------------------------------------------------------------------ hop1
    def g_person_films(rel, templates, hi=20):
        used = set()
        for p in shuffled(rng, kb.people(rel, 2, hi)):
            ans = kb.films_of(rel, p)
            if not ok_list(ans) or p in used:
                continue
            used.add(p)
            yield mk.make("hop1", 1, templates, {"X": p}, sorted(ans), kb.multi_role(p))

    def g_film_attr(rel, templates, need_single=False):
        for m in shuffled(rng, good_movies):
            ans = kb.of_film(rel, m)
            if not ok_list(ans):
                continue
            if need_single and len(ans) != 1:
                continue
            yield mk.make("hop1", 1, templates, {"F": m}, sorted(ans))

    def g_tag_films():
        tags = [t for t in kb.inv["has_tags"] if kb.good_tag(t)
                and 2 <= len(kb.inv["has_tags"][t]) <= 25]
        T = ["Which {films} are tagged {T}?",
             "list the movies tagged with {T}",
             "what films have the tag {T}?",
             "give me every {film} tagged {T}",
             "show me movies with the tag {T}"]
        for t in shuffled(rng, tags):
            ans = kb.inv["has_tags"][t]
            yield mk.make("hop1", 1, T, {"T": t}, sorted(ans))

    act_films_T = ["What {films} has {X} appeared in?",
                   "which movies did {X} act in?",
                   "List the {films} {X} starred in",
                   "{X} was in which {films}?",
                   "give me all the {films} {X} had a role in",
                   "what has {X} acted in?",
                   "name every movie featuring {X}"]
    dir_films_T = ["What {films} did {X} direct?",
                   "list the movies directed by {X}",
                   "which films was {X} behind the camera for?",
                   "give me every {film} {X} directed",
                   "{X} directed which movies?",
                   "what movies has {X} made as a director?"]
    wri_films_T = ["What {films} did {X} write?",
                   "list films written by {X}",
                   "which movies has {X} got writing credits on?",
                   "give me the {films} penned by {X}",
                   "{X} is credited as a writer on which films?",
                   "what did {X} write?"]
    film_dir_T = ["Who directed {F}?",
                  "who was the director of {F}?",
                  "{F} was directed by whom?",
                  "name the director of the {film} {F}",
                  "who made the movie {F}?",
                  "tell me who directed {F}"]
    film_wri_T = ["Who wrote {F}?",
                  "who are the writers of {F}?",
                  "list the writers credited on {F}",
                  "{F} was written by who?",
                  "who penned the {film} {F}?"]
    film_act_T = ["Who starred in {F}?",
                  "who acted in the movie {F}?",
                  "list the cast of {F}",
                  "which actors appear in {F}?",
                  "give me the actors in {F}",
                  "who was in the {film} {F}?"]
    film_year_T = ["When was {F} released?",
                   "what year did {F} come out?",
                   "{F} release year",
                   "In which year was the {film} {F} released?",
                   "tell me the year {F} came out"]
    film_lang_T = ["What language is {F} in?",
                   "which language was {F} made in?",
                   "{F} is in what language?",
                   "tell me the language of the movie {F}",
                   "what's the language of the {film} {F}?"]
    film_genre_T = ["What genre is {F}?",
                    "what kind of movie is {F}?",
                    "which genres does {F} belong to?",
                    "tell me the genre of the {film} {F}",
                    "{F} is what type of film?"]

    out += interleave(rng, 22, [
        g_person_films(ACT, act_films_T),
        g_film_attr(DIR, film_dir_T),
        g_person_films(DIR, dir_films_T),
        g_film_attr("release_year", film_year_T, need_single=True),
        g_person_films(WRI, wri_films_T),
        g_film_attr(ACT, film_act_T),
        g_tag_films(),
        g_film_attr("in_language", film_lang_T),
        g_film_attr(WRI, film_wri_T),
        g_film_attr("has_genre", film_genre_T),
        g_person_films(ACT, act_films_T),
    ])

    # ------------------------------------------------------------------ hop2
    def chain_from_person(p, rel1, rel2):
        """person -rel1^-1-> films -rel2-> tails"""
        res = set()
        for m in kb.films_of(rel1, p):
            res |= kb.of_film(rel2, m)
        return res

    def g_h2_person(rel1, rel2, templates, same_role, lo=2, hi=12):
        """Person -> films -> persons/attributes.  If the chain goes back to
        the same role (co-stars) the start is excluded; if it reaches another
        role (director -> actors) a start that would be in its own answer set is
        skipped, so that the question reads the same either way."""
        for p in shuffled(rng, kb.people(rel1, lo, hi)):
            if not kb.clean_films(kb.films_of(rel1, p)):
                continue
            ans = chain_from_person(p, rel1, rel2)
            if rel2 in PERSON_RELS:
                if same_role:
                    ans.discard(p)
                elif p in ans:
                    continue
            if not ok_list(ans) or len(ans) < 2:
                continue
            yield mk.make("hop2", 2, templates, {"X": p}, sorted(ans), kb.multi_role(p))

    def g_h2_film_other(rel, templates):
        """film -rel-> persons -rel^-1-> other films (the film itself excluded)."""
        for m in shuffled(rng, good_movies):
            ps = kb.of_film(rel, m)
            if not ps or len(ps) > 4:
                continue
            ans = set()
            for p in ps:
                ans |= kb.films_of(rel, p)
            ans.discard(m)
            if not ok_list(ans) or len(ans) < 2:
                continue
            yield mk.make("hop2", 2, templates, {"F": m}, sorted(ans))

    h2_dir_actors_T = ["Which actors appeared in {films} directed by {X}?",
                       "who acted in movies directed by {X}?",
                       "list the actors who have starred in a {film} directed by {X}",
                       "who has been in a movie {X} directed?",
                       "name the actors that {X} has directed",
                       "P|give me everyone who had a role in a {X} {film}"]
    h2_act_dirs_T = ["Who directed the {films} {X} appeared in?",
                     "which directors has {X} worked with?",
                     "list the directors of movies starring {X}",
                     "P|who were the directors of {X}'s {films}?",
                     "name the people who directed {X} in a {film}"]
    h2_wri_genres_T = ["What genres are the {films} written by {X}?",
                       "which genres has {X} written in?",
                       "list the genres of movies {X} wrote",
                       "what kinds of films does {X} write?",
                       "give me the genres of the {films} {X} penned"]
    h2_dir_other_T = ["What other {films} were made by the director of {F}?",
                      "which other movies did the director of {F} direct?",
                      "list the other {films} by whoever directed {F}",
                      "the person who directed {F} also directed which other films?",
                      "give me the other movies from the director of {F}"]
    h2_costars_T = ["Who has {X} acted alongside?",
                    "which actors have appeared in a {film} with {X}?",
                    "list the co-stars of {X}",
                    "who shared the screen with {X}?",
                    "name the actors who starred in movies with {X}"]
    h2_act_years_T = ["In which years were the {films} starring {X} released?",
                      "what years did movies with {X} come out?",
                      "list the release years of the {films} {X} was in",
                      "when were the movies {X} acted in released?"]
    h2_act_genres_T = ["What genres are the movies {X} acted in?",
                       "which genres has {X} appeared in?",
                       "list the genres of {films} starring {X}",
                       "what kinds of films has {X} been in?"]
    h2_cast_other_T = ["What other movies feature actors from {F}?",
                       "which other films did the cast of {F} appear in?",
                       "list the other {films} the actors of {F} were in",
                       "give me other movies with actors from {F}",
                       "where else did the actors of {F} appear? list the {films}"]
    h2_dir_writers_T = ["Who wrote the {films} directed by {X}?",
                        "which writers has {X} worked with as a director?",
                        "list the writers of movies {X} directed",
                        "who has written a {film} that {X} directed?"]
    h2_wri_other_T = ["What else did the writers of {F} write?",
                      "which other films were written by the writer of {F}?",
                      "list other movies by the screenwriters of {F}",
                      "give me the other {films} written by whoever wrote {F}"]

    out += interleave(rng, 20, [
        g_h2_person(DIR, ACT, h2_dir_actors_T, same_role=False),
        g_h2_person(ACT, DIR, h2_act_dirs_T, same_role=False),
        g_h2_person(WRI, "has_genre", h2_wri_genres_T, same_role=False),
        g_h2_film_other(DIR, h2_dir_other_T),
        g_h2_person(ACT, ACT, h2_costars_T, same_role=True, hi=6),
        g_h2_person(ACT, "release_year", h2_act_years_T, same_role=False),
        g_h2_film_other(ACT, h2_cast_other_T),
        g_h2_person(DIR, WRI, h2_dir_writers_T, same_role=False),
        g_h2_film_other(WRI, h2_wri_other_T),
        g_h2_person(ACT, "has_genre", h2_act_genres_T, same_role=False),
    ])

    # ------------------------------------------------------------------ hop3
    def g_h3_person(rel1, rel2, rel3, templates, hi=8):
        """person -rel1^-1-> films -rel2-> persons -rel2^-1-> films"""
        for p in shuffled(rng, kb.people(rel1, 2, hi)):
            if not kb.clean_films(kb.films_of(rel1, p)):
                continue
            mid = chain_from_person(p, rel1, rel2)
            if p in mid or not mid:
                # p in mid: an actor who directed themself (say); skipped so
                # that the question reads the same whether or not p counts
                continue
            ans = set()
            for q in mid:
                ans |= kb.films_of(rel3, q)
            if not ok_list(ans) or len(ans) < 3:
                continue
            yield mk.make("hop3", 3, templates, {"X": p}, sorted(ans), kb.multi_role(p))

    def g_h3_film(rel1, rel3, templates, exclude_start_mid=False):
        """film -rel1-> persons -rel1^-1-> films -rel3-> tails"""
        for m in shuffled(rng, good_movies):
            ps = kb.of_film(rel1, m)
            if not ps or len(ps) > 3:
                continue
            films = set()
            for p in ps:
                films |= kb.films_of(rel1, p)
            if exclude_start_mid:
                films.discard(m)
            if len(films) < 2 or not kb.clean_films(films):
                continue
            ans = set()
            for f in films:
                ans |= kb.of_film(rel3, f)
            if not ok_list(ans) or len(ans) < 2:
                continue
            yield mk.make("hop3", 3, templates, {"F": m}, sorted(ans))

    h3_act_dir_films_T = ["What {films} were directed by the directors {X} has worked with?",
                          "list all movies made by people who have directed {X}",
                          "which movies did the directors of films starring {X} direct?",
                          "give me every {film} by a director who has directed {X}",
                          "{X} has been directed by a few people. what {films} did those directors make?"]
    h3_film_dir_actors_T = ["Which actors appeared in {films} by the director of {F}?",
                            "who has acted in movies directed by whoever directed {F}?",
                            "list the actors in {films} made by the director of {F}",
                            "name everyone who starred in a film by the director of {F}"]
    h3_dir_wri_films_T = ["What {films} were written by the writers of the movies {X} directed?",
                          "which movies did the people who wrote for {X} write?",
                          "list every {film} written by someone who wrote a film directed by {X}",
                          "give me the films penned by writers who worked on {films} directed by {X}"]
    h3_film_wri_dirs_T = ["Who directed the {films} written by the writers of {F}?",
                          "which directors made movies written by the writers of {F}?",
                          "list the directors of {films} scripted by whoever wrote {F}",
                          "name the directors of movies penned by the screenwriters of {F}"]
    h3_act_wri_films_T = ["What movies were written by the writers of {films} starring {X}?",
                          "list films written by people who wrote movies {X} appeared in",
                          "which films did the screenwriters of movies with {X} write?",
                          "give me every {film} by writers who have written for {X}"]
    h3_film_dir_langs_T = ["What languages are the films by the director of {F} in?",
                           "which languages has the director of {F} made movies in?",
                           "list the languages of {films} directed by whoever directed {F}",
                           "in what languages did the director of {F} make films?"]
    h3_film_dir_genres_T = ["What genres has the director of {F} worked in?",
                            "which genres do the movies by the director of {F} belong to?",
                            "list the genres of {films} made by the director of {F}",
                            "what kinds of films does the director of {F} make?"]
    h3_film_dir_other_actors_T = ["Who acted in the other {films} by the director of {F}?",
                                  "list the actors from the other movies by the person who directed {F}",
                                  "which actors were in other {films} directed by the director of {F}?",
                                  "name the cast of the other movies directed by whoever made {F}"]

    out += interleave(rng, 16, [
        g_h3_person(ACT, DIR, DIR, h3_act_dir_films_T),
        g_h3_film(DIR, ACT, h3_film_dir_actors_T),
        g_h3_person(DIR, WRI, WRI, h3_dir_wri_films_T),
        g_h3_film(WRI, DIR, h3_film_wri_dirs_T),
        g_h3_person(ACT, WRI, WRI, h3_act_wri_films_T),
        g_h3_film(DIR, "in_language", h3_film_dir_langs_T),
        g_h3_film(DIR, "has_genre", h3_film_dir_genres_T),
        g_h3_film(DIR, ACT, h3_film_dir_other_actors_T, exclude_start_mid=True),
    ])

    # ---------------------------------------------------------- intersection
    def g_int_persons(rel_a, rel_b, templates):
        """films with person A in role rel_a and person B in role rel_b."""
        for a in shuffled(rng, kb.people(rel_a, 3, 25)):
            fa = kb.films_of(rel_a, a)
            partners = set()
            for m in fa:
                partners |= kb.of_film(rel_b, m)
            partners.discard(a)
            partners = [b for b in partners if kb.clean_name(b)
                        and 2 <= len(kb.films_of(rel_b, b)) <= 40]
            partners = sorted(partners)
            rng.shuffle(partners)
            for b in partners:
                fb = kb.films_of(rel_b, b)
                ans = fa & fb
                if ans and ans != fa and ans != fb and kb.clean_films(ans):
                    slots = {"A": a, "B": b}
                    yield mk.make("intersection", 0, templates, slots, sorted(ans),
                                  kb.multi_role(a) or kb.multi_role(b))
                    break

    def g_int_genre(rel, templates):
        for p in shuffled(rng, kb.people(rel, 3, 25)):
            fp = kb.films_of(rel, p)
            gs = collections.Counter()
            for m in fp:
                for g in kb.of_film("has_genre", m):
                    gs[g] += 1
            cands = sorted(g for g in gs if g in GENRE_PL and 1 <= gs[g] < len(fp))
            if not cands:
                continue
            g = rng.choice(cands)
            ans = {m for m in fp if g in kb.of_film("has_genre", m)}
            if not kb.clean_films(ans):
                continue
            slots = {"X": p, "gpl": GENRE_PL[g], "gadj": GENRE_ADJ[g]}
            yield mk.make("intersection", 0, templates, slots, sorted(ans), kb.multi_role(p))

    int_two_actors_T = ["What {films} have both {A} and {B} appeared in?",
                        "which movies star {A} and {B} together?",
                        "list movies featuring both {A} and {B}",
                        "{A} and {B} were both in which {films}?",
                        "give me the films with {A} and also {B} in the cast"]
    int_dir_actor_T = ["Which {films} directed by {A} star {B}?",
                       "what movies did {A} direct with {B} in the cast?",
                       "list the films {B} made with director {A}",
                       "name the movies directed by {A} that {B} acted in",
                       "{B} appeared in which films directed by {A}?"]
    int_dir_writer_T = ["Which {films} did {A} direct that were written by {B}?",
                        "list movies written by {B} and directed by {A}",
                        "what films did {B} write for director {A}?",
                        "name the {films} with {B} as writer and {A} as director"]
    int_wri_genre_T = ["Which {gpl} did {X} write?",
                       "list the {gadj} {films} written by {X}",
                       "what {gadj} movies has {X} written?",
                       "give me the {gpl} penned by {X}",
                       "{X} wrote which {gadj} films?"]
    int_dir_genre_T = ["Which {gpl} did {X} direct?",
                       "list {gadj} movies directed by {X}",
                       "what {gadj} {films} has {X} directed?",
                       "name the {gpl} {X} was behind the camera for"]
    int_act_genre_T = ["Which {gpl} has {X} appeared in?",
                       "list the {gadj} {films} {X} starred in",
                       "what {gadj} movies was {X} in?",
                       "give me {gpl} with {X} in them"]

    out += interleave(rng, 16, [
        g_int_persons(ACT, ACT, int_two_actors_T),
        g_int_persons(DIR, ACT, int_dir_actor_T),
        g_int_genre(WRI, int_wri_genre_T),
        g_int_persons(DIR, WRI, int_dir_writer_T),
        g_int_genre(DIR, int_dir_genre_T),
        g_int_genre(ACT, int_act_genre_T),
    ])

    # ----------------------------------------------------------------- count
    count_T = ["How many {films} did {X} {base}?",
               "how many movies has {X} {pp}?",
               "number of {films} {X} {past}",
               "count the films {X} {past}",
               "P|how many {X} {films} are there?",
               "tell me how many movies {X} {past}"]
    count_tag_T = ["How many {films} are tagged {T}?",
                   "how many movies have the tag {T}?",
                   "number of films tagged with {T}",
                   "count the movies tagged {T}"]

    def g_count(rel, lo=2, hi=30):
        for p in shuffled(rng, kb.people(rel, lo, hi)):
            n = len(kb.films_of(rel, p))
            slots = dict(rv(rel), X=p)
            yield mk.make("count", 0, count_T, slots, [str(n)], kb.multi_role(p))

    def g_count_tag():
        tags = [t for t in kb.inv["has_tags"] if kb.good_tag(t)
                and 2 <= len(kb.inv["has_tags"][t]) <= 40]
        for t in shuffled(rng, tags):
            yield mk.make("count", 0, count_tag_T, {"T": t},
                          [str(len(kb.inv["has_tags"][t]))])

    out += interleave(rng, 12, [g_count(DIR, 3), g_count(ACT, 3), g_count(WRI, 2),
                                g_count_tag()])

    # -------------------------------------------------------- distinct_count
    def g_dc(rel1, rel2, templates, same_role):
        for p in shuffled(rng, kb.people(rel1, 3, 20)):
            if not kb.clean_films(kb.films_of(rel1, p)):
                continue
            s = chain_from_person(p, rel1, rel2)
            if same_role:
                s.discard(p)
            elif p in s:
                continue
            if len(s) < 2:
                continue
            yield mk.make("distinct_count", 0, templates, {"X": p}, [str(len(s))],
                          kb.multi_role(p))

    dc_act_dirs_T = ["How many different directors has {X} worked with?",
                     "with how many directors has {X} made movies?",
                     "count the distinct directors of {films} starring {X}",
                     "how many directors have directed {X}?",
                     "number of different people who directed {X}"]
    dc_dir_actors_T = ["How many different actors has {X} directed?",
                       "how many distinct actors appear in {films} directed by {X}?",
                       "count the actors {X} has worked with as a director",
                       "number of different actors in movies directed by {X}"]
    dc_dir_writers_T = ["How many different writers has {X} worked with as a director?",
                        "how many distinct screenwriters wrote {films} that {X} directed?",
                        "count the writers of movies directed by {X}",
                        "number of different writers on {X}-directed films"]
    dc_costars_T = ["How many different actors has {X} appeared with?",
                    "how many co-stars has {X} had?",
                    "count the distinct actors who shared a {film} with {X}",
                    "number of different people {X} has acted alongside"]
    dc_wri_dirs_T = ["How many different directors have made {films} written by {X}?",
                     "how many distinct directors has {X} written for?",
                     "count the directors who filmed scripts by {X}",
                     "number of different directors of movies penned by {X}"]

    out += interleave(rng, 12, [
        g_dc(ACT, DIR, dc_act_dirs_T, False),
        g_dc(DIR, ACT, dc_dir_actors_T, False),
        g_dc(DIR, WRI, dc_dir_writers_T, False),
        g_dc(ACT, ACT, dc_costars_T, True),
        g_dc(WRI, DIR, dc_wri_dirs_T, False),
    ])

    # ----------------------------------------------------------- group_count
    def g_gc(rel1, rel2, templates, same_role):
        """Top partner(s) over person -rel1^-1-> films -rel2-> partner."""
        for p in shuffled(rng, kb.people(rel1, 3, 40)):
            if not kb.clean_films(kb.films_of(rel1, p)):
                continue
            c = collections.Counter()
            for m in kb.films_of(rel1, p):
                for q in kb.of_film(rel2, m):
                    c[q] += 1
            if rel2 in PERSON_RELS:
                if same_role:
                    c.pop(p, None)
                elif p in c:
                    continue
            if not c:
                continue
            top = max(c.values())
            if top < 2:
                continue
            ans = sorted(q for q in c if c[q] == top)
            if len(ans) > 3:
                continue
            yield mk.make("group_count", 0, templates, {"X": p}, ans, kb.multi_role(p))

    gc_act_dir_T = ["Who has directed {X} the most?",
                    "which director has {X} worked with most often?",
                    "who directed the most {films} starring {X}?",
                    "name the director {X} made the most movies with",
                    "P|{X}'s most frequent director?"]
    gc_dir_act_T = ["Which actor appears most often in {films} directed by {X}?",
                    "who has {X} cast the most?",
                    "which actor has {X} directed most often?",
                    "P|name the actor who shows up most in {X}'s {films}"]
    gc_dir_wri_T = ["Which writer has {X} worked with most often as a director?",
                    "who wrote the most {films} directed by {X}?",
                    "name the screenwriter {X} directed the most scripts of",
                    "what writer has the most credits on movies directed by {X}?"]
    gc_wri_dir_T = ["Who directed the most {films} written by {X}?",
                    "which director filmed {X}'s scripts most often?",
                    "name the director who made the most movies written by {X}",
                    "most frequent director of films penned by {X}?"]
    gc_costar_T = ["Who has {X} acted with most often?",
                   "which actor has shared the screen with {X} the most?",
                   "name {X}'s most frequent co-star",
                   "who appears alongside {X} in the most {films}?"]
    gc_dir_genre_T = ["Which genre has {X} directed most often?",
                      "what kind of {films} does {X} direct the most?",
                      "most common genre among movies directed by {X}?",
                      "name the genre {X} has made the most films in"]

    out += interleave(rng, 12, [
        g_gc(ACT, DIR, gc_act_dir_T, False),
        g_gc(DIR, ACT, gc_dir_act_T, False),
        g_gc(DIR, WRI, gc_dir_wri_T, False),
        g_gc(WRI, DIR, gc_wri_dir_T, False),
        g_gc(ACT, ACT, gc_costar_T, True),
        g_gc(DIR, "has_genre", gc_dir_genre_T, False),
    ])

    # -------------------------------------------------------- argmax_argmin
    first_T = ["What is the earliest {film} {X} {past}?",
               "which was the first {film} {X} {past}?",
               "P|what's {X}'s oldest {film}?",
               "name the earliest movie that {X} {past}",
               "Of all the {films} {X} {past}, which came out first?"]
    last_T = ["What is the most recent {film} {X} {past}?",
              "which {film} did {X} {base} last?",
              "P|what is {X}'s latest {film}?",
              "name the newest movie {X} {past}",
              "Of the {films} {X} {past}, which was released most recently?"]

    def all_years(films):
        ys = {m: kb.year(m) for m in films}
        if any(y is None for y in ys.values()):
            return None
        return ys

    def g_arg(rel, latest):
        for p in shuffled(rng, kb.people(rel, 3, 20)):
            ys = all_years(kb.films_of(rel, p))
            if ys is None:
                continue
            target = max(ys.values()) if latest else min(ys.values())
            ans = [m for m in ys if ys[m] == target]
            if len(ans) != 1:
                continue
            slots = dict(rv(rel), X=p)
            yield mk.make("argmax_argmin", 0, last_T if latest else first_T, slots, ans,
                          kb.multi_role(p))

    out += interleave(rng, 12, [g_arg(DIR, False), g_arg(ACT, True), g_arg(WRI, False),
                                g_arg(DIR, True), g_arg(ACT, False), g_arg(WRI, True)])

    # -------------------------------------------------------- filter_literal
    after_T = ["Which {films} did {X} {base} after {Y}?",
               "list the {films} {X} {past} that came out after {Y}",
               "what movies has {X} {pp} since {Y}?",
               "P|{X} {films} released after {Y}",
               "give me the films {X} {past} later than {Y}"]
    before_T = ["Which {films} did {X} {base} before {Y}?",
                "list the movies {X} {past} prior to {Y}",
                "P|{X} {films} from before {Y}",
                "give me the {films} {X} {past} that were released earlier than {Y}",
                "which of the {films} {X} {past} were released before {Y}?"]
    between_T = ["Which {films} did {X} {base} between {Y1} and {Y2}?",
                 "list the movies {X} {past} from {Y1} to {Y2}",
                 "P|{X} {films} released between {Y1} and {Y2}",
                 "give me the {films} {X} {past} that came out between {Y1} and {Y2}",
                 "what did {X} {base} between {Y1} and {Y2}?"]

    def g_filter(rel, mode):
        """Thresholds are never a year in which the person has a film, so
        'after'/'before'/'between' read the same inclusive or exclusive."""
        for p in shuffled(rng, kb.people(rel, 4, 25)):
            ys = all_years(kb.films_of(rel, p))
            if ys is None:
                continue
            yrs = sorted(set(ys.values()))
            if len(yrs) < 3:
                continue
            gaps = [y for y in range(yrs[0] + 1, yrs[-1]) if y not in yrs]
            if not gaps:
                continue
            slots = dict(rv(rel), X=p)
            if mode in ("after", "before"):
                y = rng.choice(gaps)
                ans = {m for m in ys if (ys[m] > y if mode == "after" else ys[m] < y)}
                slots["Y"] = str(y)
                T = after_T if mode == "after" else before_T
            else:
                if len(gaps) < 2:
                    continue
                y1, y2 = sorted(rng.sample(gaps, 2))
                ans = {m for m in ys if y1 < ys[m] < y2}
                slots["Y1"], slots["Y2"] = str(y1), str(y2)
                T = between_T
            if not ans or len(ans) == len(ys):
                continue
            yield mk.make("filter_literal", 0, T, slots, sorted(ans), kb.multi_role(p))

    out += interleave(rng, 12, [g_filter(DIR, "after"), g_filter(ACT, "before"),
                                g_filter(WRI, "between"), g_filter(ACT, "after"),
                                g_filter(DIR, "between"), g_filter(DIR, "before")])

    # ---------------------------------------------------------- compare_sets
    more_T = ["Did {A} {base} more {films} than {B}?",
              "has {A} {pp} more movies than {B}?",
              "is it true that {A} {past} more films than {B}?",
              "{A} {past} more {films} than {B}, yes or no?",
              "does {A} have more {credit} credits than {B}?"]
    fewer_T = ["Did {A} {base} fewer {films} than {B}?",
               "has {A} {pp} fewer movies than {B}?",
               "is it true that {A} {past} fewer films than {B}?",
               "does {A} have fewer {credit} credits than {B}?"]

    def g_cmp_sets(rel):
        pool = shuffled(rng, kb.people(rel, 2, 30))
        want_yes = True
        for i in range(0, len(pool) - 1, 2):
            a, b = pool[i], pool[i + 1]
            na, nb = len(kb.films_of(rel, a)), len(kb.films_of(rel, b))
            if na == nb:
                continue
            more = (na > nb) == want_yes  # choose the wording that gives the wanted answer
            ans = "yes" if ((na > nb) if more else (na < nb)) else "no"
            slots = dict(rv(rel), A=a, B=b)
            yield mk.make("compare_sets", 0, more_T if more else fewer_T, slots, [ans])
            want_yes = not want_yes

    out += interleave(rng, 12, [g_cmp_sets(DIR), g_cmp_sets(ACT), g_cmp_sets(WRI)])

    # ------------------------------------------------------ compare_entities
    earlier_T = ["Which came out first, {F1} or {F2}?",
                 "which was released earlier: {F1} or {F2}?",
                 "{F1} or {F2} - which one is older?",
                 "tell me which film came out earlier, {F1} or {F2}",
                 "Between {F1} and {F2}, which was released first?"]
    later_T = ["Which is newer, {F1} or {F2}?",
               "which was released later, {F1} or {F2}?",
               "{F1} vs {F2}: which one came out more recently?",
               "name the more recent {film}: {F1} or {F2}",
               "Of {F1} and {F2}, which came out last?"]

    def g_cmp_ent(related):
        gm = set(good_movies)
        if related:
            # two films by the same director or with the same actor
            rel = rng.choice([DIR, ACT])
            for p in shuffled(rng, kb.people(rel, 3, 20)):
                fs = sorted(m for m in kb.films_of(rel, p) if m in gm)
                if len(fs) < 2:
                    continue
                f1, f2 = rng.sample(fs, 2)
                if kb.year(f1) == kb.year(f2):
                    continue
                yield f1, f2
        else:
            pool = shuffled(rng, good_movies)
            for i in range(0, len(pool) - 1, 2):
                f1, f2 = pool[i], pool[i + 1]
                if kb.year(f1) == kb.year(f2):
                    continue
                yield f1, f2

    def g_cmp_ent_q(related, later):
        for f1, f2 in g_cmp_ent(related):
            y1, y2 = kb.year(f1), kb.year(f2)
            if later:
                ans = f1 if y1 > y2 else f2
            else:
                ans = f1 if y1 < y2 else f2
            yield mk.make("compare_entities", 0, later_T if later else earlier_T,
                          {"F1": f1, "F2": f2}, [ans])

    out += interleave(rng, 12, [g_cmp_ent_q(True, False), g_cmp_ent_q(False, True),
                                g_cmp_ent_q(False, False), g_cmp_ent_q(True, True)])

    # ------------------------------------------------------------ arithmetic
    plus_T = ["If {X} had {pp} {k} more {kfilms}, how many would that be in total?",
              "suppose {X} {past} {k} more {kfilms}. how many would that make?",
              "how many films would {X} have {pp} with {k} more?",
              "imagine {X} {past} {k} additional {kfilms}: what would the total be?"]
    minus_T = ["How many {films} would be left if {k} of the films {X} {past} were removed?",
               "if you took away {k} of the movies {X} {past}, how many would remain?",
               "suppose {k} of the {films} {X} {past} were deleted from the list - how many would be left?",
               "P|remove {k} of {X}'s films: how many are left?"]
    double_T = ["If {X} had {pp} twice as many {films}, how many would that be?",
                "what is double the number of movies {X} {past}?",
                "how many films would {X} have {pp} if the number were doubled?",
                "twice the number of {films} {X} {past} is how many?"]

    def g_arith(rel, mode):
        for p in shuffled(rng, kb.people(rel, 3, 25)):
            n = len(kb.films_of(rel, p))
            k = rng.choice([1, 2, 3])
            if mode == "minus" and k >= n:
                continue
            kw = NUM_WORDS[k] if rng.random() < 0.6 else str(k)
            slots = dict(rv(rel), X=p, k=kw)
            slots["kfilms"] = rng.choice(FILM if k == 1 else FILMS)
            if mode == "plus":
                T, val = plus_T, n + k
            elif mode == "minus":
                T, val = minus_T, n - k
            else:
                T, val = double_T, 2 * n
            yield mk.make("arithmetic", 0, T, slots, [str(val)], kb.multi_role(p))

    out += interleave(rng, 12, [g_arith(DIR, "plus"), g_arith(ACT, "minus"),
                                g_arith(WRI, "double"), g_arith(ACT, "plus"),
                                g_arith(DIR, "minus"), g_arith(WRI, "plus")])
    return out, mk


# ----------------------------------------------------------------------------
# FB15k-237
# ----------------------------------------------------------------------------

FB = {
    "birth": "/people/person/place_of_birth",
    "death": "/people/deceased_person/place_of_death",
    "capital": "/location/country/capital",
    "official_lang": "/location/country/official_language",
    "nationality": "/people/person/nationality",
    "director_film": "/film/director/film",
    "film_music": "/film/film/music",
    "film_written": "/film/film/written_by",
    "origin": "/music/artist/origin",
    "founded": "/organization/organization_founder/organizations_founded",
    "award_winner": "/award/award_category/winners./award/award_honor/award_winner",
    "gov": "/location/country/form_of_government",
    "film_genre": "/film/film/genre",
    "film_country": "/film/film/country",
    "film_language": "/film/film/language",
    "profession": "/people/person/profession",
    "city_country": "/base/biblioness/bibs_location/country",
    "actor_film": "/film/actor/film./film/performance/film",
}

# Names that are also everyday English words: never used as a question's entity.
COMMON_WORDS = {
    "Reading", "Bath", "Mobile", "Nice", "Orange", "Independence", "Liberty",
    "Union", "Victoria", "Chance", "Friends", "Heat", "Crash", "Speed", "Signs",
    "Up", "Cars", "Babe", "Big", "Fame", "Rain", "Home", "Hope", "Jordan", "Chad",
    "Turkey", "Georgia", "Guinea", "Split", "Greece", "Bay", "Bird", "Ballet", "Bass",
}

# genres (by exact label) usable as constraints, with a phrase for the question
FB_GENRES = {
    "Drama": "drama", "Comedy-GB": "comedy", "Thriller": "thriller",
    "Action Film": "action", "Romance Film": "romance", "Adventure Film": "adventure",
    "Crime Fiction": "crime", "Science Fiction": "science fiction", "Fantasy": "fantasy",
    "Mystery": "mystery", "War film": "war", "Horror": "horror", "Animation": "animated",
    "Musical": "musical", "Biographical film": "biographical",
    "Romantic comedy": "romantic comedy", "Black comedy": "black comedy",
    "Comedy-drama": "comedy-drama", "Indie film": "indie", "Period piece": "period",
    "Psychological thriller": "psychological thriller", "Coming of age": "coming-of-age",
    "Spy film": "spy", "Teen film": "teen", "Western": "western",
    "Political drama": "political drama", "Historical fiction": "historical",
    "Parody": "parody", "Satire": "satirical", "Superhero movie": "superhero",
}

# professions (by exact label) usable as constraints, with a plural phrase
FB_PROFESSIONS = {
    "Actor-GB": "actors", "Film Producer-GB": "film producers", "Screenwriter": "screenwriters",
    "Film Director": "film directors", "Musician-GB": "musicians",
    "Television producer-GB": "television producers", "Writer-GB": "writers",
    "Songwriter-GB": "songwriters", "Voice Actor": "voice actors",
    "Record producer-GB": "record producers", "Author-GB": "authors",
    "Comedian": "comedians", "Singer-songwriter-GB": "singer-songwriters",
    "Composer": "composers", "Television Director": "television directors",
    "Guitarist-GB": "guitarists", "Model": "models", "Playwright-GB": "playwrights",
    "Politician-GB": "politicians", "Presenter-GB": "TV presenters",
    "Lyricist": "lyricists", "Poet": "poets", "Journalist-GB": "journalists",
    "Pianist-GB": "pianists", "Lawyer": "lawyers",
}


def strip_gb(n):
    return n[:-3] if n.endswith("-GB") else n


def lang_phrase(n):
    n = strip_gb(n)
    for suf in (" Language", " language"):
        if n.endswith(suf):
            return n[: -len(suf)]
    return n


THE_WORDS = {"Republic", "Empire", "Kingdom", "Union", "States", "Islands", "Emirates",
             "Netherlands", "Philippines", "Bahamas", "Gambia", "Confederation",
             "Federation", "Commonwealth"}


def country_phrase(n):
    """'the' before names such as 'Czech Republic' or 'Spanish Empire'."""
    if not n.startswith("The ") and THE_WORDS & set(n.replace(",", " ").split()):
        return "the " + n
    return n


class FbKB:
    def __init__(self, tar_path, names_path):
        self.name = {}
        with open(names_path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\r\n")
                if not line:
                    continue
                m, n = line.split("\t")
                self.name[m] = n
        cnt = collections.Counter(self.name.values())
        self.ambiguous = {n for n, c in cnt.items() if c > 1}
        scnt = collections.Counter(strip_gb(n) for n in self.name.values())
        self.ambiguous_stripped = {n for n, c in scnt.items() if c > 1}
        self.fwd = collections.defaultdict(lambda: collections.defaultdict(set))
        self.inv = collections.defaultdict(lambda: collections.defaultdict(set))
        n = 0
        with tarfile.open(tar_path, "r:gz") as tar:
            members = {os.path.basename(m.name): m for m in tar.getmembers() if m.isfile()}
            for fn in ("train.txt", "valid.txt", "test.txt"):
                data = tar.extractfile(members[fn]).read().decode("utf-8")
                for line in io.StringIO(data, newline=""):
                    line = line.rstrip("\r\n")
                    if not line:
                        continue
                    h, r, t = line.split("\t")
                    self.fwd[r][h].add(t)
                    self.inv[r][t].add(h)
                    n += 1
        self.n_triples = n

    def label(self, m):
        return self.name[m]

    def answer_ok(self, m):
        n = self.name.get(m)
        return n is not None and n not in self.ambiguous and strip_gb(n) not in self.ambiguous_stripped

    def anchor_ok(self, m):
        """Unambiguous, and not an everyday word; the question uses the name
        with a trailing '-GB' dropped."""
        if not self.answer_ok(m):
            return False
        n = strip_gb(self.name[m])
        if n in COMMON_WORDS or any(c in n for c in "[](){}|"):
            return False
        return len(n) >= 3

    def text(self, m):
        return strip_gb(self.name[m])

    def answers(self, mids):
        """Labels exactly as in entity2name; None if any would be ambiguous."""
        if not all(self.answer_ok(m) for m in mids):
            return None
        return sorted(self.name[m] for m in mids)

    def F(self, key, h):
        return set(self.fwd[FB[key]].get(h, ()))

    def I(self, key, t):
        return set(self.inv[FB[key]].get(t, ()))


def fb_questions(kb, rng):
    mk = Maker(rng, "fb15k")
    out = []

    def heads(key):
        return sorted(kb.fwd[FB[key]])

    def tails(key):
        return sorted(kb.inv[FB[key]])

    # ------------------------------------------------------------------ hop1
    def g_fwd(key, templates, slot, lo=1, hi=MAX_ANSWERS, multiword=False, render=None):
        for h in shuffled(rng, heads(key)):
            if not kb.anchor_ok(h):
                continue
            if multiword and len(words(kb.text(h))) < 2:
                continue
            ans_m = kb.F(key, h)
            if not (lo <= len(ans_m) <= hi):
                continue
            ans = kb.answers(ans_m)
            if ans is None:
                continue
            yield mk.make("hop1", 1, templates, {slot: (render or kb.text)(h)}, ans)

    def g_inv(key, templates, slot, lo=1, hi=MAX_ANSWERS, multiword=False):
        for t in shuffled(rng, tails(key)):
            if not kb.anchor_ok(t):
                continue
            if multiword and len(words(kb.text(t))) < 2:
                continue
            ans_m = kb.I(key, t)
            if not (lo <= len(ans_m) <= hi):
                continue
            ans = kb.answers(ans_m)
            if ans is None:
                continue
            yield mk.make("hop1", 1, templates, {slot: kb.text(t)}, ans)

    birth_T = ["Where was {P} born?",
               "what is the birthplace of {P}?",
               "{P} place of birth",
               "tell me where {P} was born",
               "{P} was born where?"]
    death_T = ["Where did {P} die?",
               "what was the place of death of {P}?",
               "{P} died where?",
               "tell me where {P} passed away",
               "in what place did {P} die?"]
    capital_T = ["What is the capital of {C}?",
                 "capital city of {C}",
                 "which city is the capital of {C}?",
                 "name the capital of {C}",
                 "tell me what the capital of {C} is"]
    lang_T = ["What is the official language of {C}?",
              "which languages are official in {C}?",
              "list the official languages of {C}",
              "{C} official language?",
              "what languages have official status in {C}?"]
    nat_T = ["What is the nationality of {P}?",
             "which country is {P} a citizen of?",
             "{P} nationality",
             "tell me {P}'s citizenship",
             "what country does {P} hold citizenship in?"]
    fdir_T = ["Who directed {F}?",
              "who was the director of the {film} {F}?",
              "{F} was directed by whom?",
              "name the director of {F}",
              "tell me who directed {F}"]
    music_T = ["Who composed the music for {F}?",
               "who did the score for the {film} {F}?",
               "name the composer of {F}",
               "{F} music by whom?",
               "who wrote the film score of {F}?"]
    fwri_T = ["Who wrote {F}?",
              "who are the writers of the {film} {F}?",
              "{F} was written by who?",
              "list the writers of {F}",
              "name the screenwriter of {F}"]
    origin_T = ["Where is {A} from?",
                "where does the act {A} come from?",
                "what is the place of origin of {A}?",
                "tell me where {A} originated",
                "{A} hometown?"]
    founders_T = ["Who founded {O}?",
                  "name the founders of {O}",
                  "{O} was founded by whom?",
                  "who started {O}?",
                  "list the founders of {O}"]
    award_T = ["Who has won the {W}?",
               "list the winners of the {W}",
               "who received the {W}?",
               "name the people who won the {W}",
               "give me everyone who won the {W}"]
    gov_T = ["What form of government does {C} have?",
             "{C} system of government",
             "what kind of government does {C} have?",
             "tell me the form of government of {C}",
             "how is {C} governed? name the form of government"]

    out += interleave(rng, 22, [
        g_fwd("birth", birth_T, "P", multiword=True),
        g_fwd("capital", capital_T, "C", render=lambda c: country_phrase(kb.text(c))),
        g_fwd("official_lang", lang_T, "C", render=lambda c: country_phrase(kb.text(c))),
        g_inv("director_film", fdir_T, "F", multiword=True),
        g_fwd("nationality", nat_T, "P", multiword=True),
        g_fwd("death", death_T, "P", multiword=True),
        g_fwd("film_music", music_T, "F", multiword=True),
        g_inv("founded", founders_T, "O", multiword=True),
        g_fwd("award_winner", award_T, "W", lo=2, hi=30, multiword=True),
        g_fwd("origin", origin_T, "A", multiword=True),
        g_fwd("film_written", fwri_T, "F", multiword=True),
        g_fwd("gov", gov_T, "C", render=lambda c: country_phrase(kb.text(c))),
    ])

    # ------------------------------------------------------------------ hop2
    def g_chain(starts, step1, step2, templates, slot, lo=1, hi=MAX_ANSWERS, min_mid=1,
                max_mid=None):
        """start -step1-> middle nodes -step2-> answers.  Every middle node
        must have a second step (no half-known chains), and one answer set is
        used at most twice per chain kind (keeps 'United States of America'
        from filling the type)."""
        seen = collections.Counter()
        for s in shuffled(rng, starts):
            if not kb.anchor_ok(s) or len(words(kb.text(s))) < 2:
                continue
            mid = step1(s)
            if len(mid) < min_mid or (max_mid is not None and len(mid) > max_mid):
                continue
            ans_m = set()
            complete = True
            for x in mid:
                nxt = step2(x)
                if not nxt:
                    complete = False
                ans_m |= nxt
            if not complete:
                continue
            ans_m.discard(s)
            if not (lo <= len(ans_m) <= hi):
                continue
            ans = kb.answers(ans_m)
            if ans is None or seen[tuple(ans)] >= 2:
                continue
            seen[tuple(ans)] += 1
            yield mk.make("hop2", 2, templates, {slot: kb.text(s)}, ans)

    bcountry_T = ["In which country was {P} born?",
                  "what country is the birthplace of {P} in?",
                  "{P} was born in which country?",
                  "name the country where {P} was born",
                  "tell me the country {P} was born in"]
    natlang_T = ["What are the official languages of the country {P} is a citizen of?",
                 "which languages are official in the country of nationality of {P}?",
                 "list the official languages of {P}'s home country",
                 "what language is official in the country {P} comes from?"]
    natcap_T = ["What is the capital of the country {P} is a national of?",
                "name the capital city of the country {P} is from",
                "which city is the capital of {P}'s home country?",
                "capital of the country of citizenship of {P}?"]
    dirbirth_T = ["Where was the director of {F} born?",
                  "what is the birthplace of the person who directed {F}?",
                  "the director of the {film} {F} was born where?",
                  "tell me where the director of {F} was born"]
    dirgenres_T = ["What genres are the {films} directed by {D}?",
                   "which genres has {D} directed films in?",
                   "list the genres of movies made by {D}",
                   "what kinds of {films} has {D} directed?"]
    castbirth_T = ["Where were the actors of {F} born?",
                   "list the birthplaces of the cast of {F}",
                   "which places were the actors in the {film} {F} born in?",
                   "give me the birthplaces of actors who appeared in {F}"]
    dircountry_T = ["In which countries were the {films} directed by {D} produced?",
                    "which countries are the movies of director {D} from?",
                    "list the countries of the films {D} directed",
                    "what countries did {D}'s {films} come from?"]
    founderbirth_T = ["Where were the founders of {O} born?",
                      "list the birthplaces of the people who founded {O}",
                      "what are the birthplaces of the founders of {O}?",
                      "tell me where the founders of {O} were born"]

    out += interleave(rng, 20, [
        g_chain(heads("birth"), lambda p: kb.F("birth", p),
                lambda c: kb.F("city_country", c), bcountry_T, "P", max_mid=1),
        g_chain(heads("nationality"), lambda p: kb.F("nationality", p),
                lambda c: kb.F("official_lang", c), natlang_T, "P", max_mid=1),
        g_chain(tails("director_film"), lambda f: kb.I("director_film", f),
                lambda d: kb.F("birth", d), dirbirth_T, "F"),
        g_chain(heads("director_film"), lambda d: kb.F("director_film", d),
                lambda f: kb.F("film_genre", f), dirgenres_T, "D", lo=2, min_mid=2),
        g_chain(tails("actor_film"), lambda f: kb.I("actor_film", f),
                lambda a: kb.F("birth", a), castbirth_T, "F", lo=2, hi=25, min_mid=2),
        g_chain(heads("nationality"), lambda p: kb.F("nationality", p),
                lambda c: kb.F("capital", c), natcap_T, "P", max_mid=1),
        g_chain(heads("director_film"), lambda d: kb.F("director_film", d),
                lambda f: kb.F("film_country", f), dircountry_T, "D", lo=2, min_mid=2),
        g_chain(tails("founded"), lambda o: kb.I("founded", o),
                lambda p: kb.F("birth", p), founderbirth_T, "O", min_mid=1),
    ])

    # ---------------------------------------------------------- intersection
    genre_mids = {m: FB_GENRES[n] for m, n in kb.name.items() if n in FB_GENRES}
    prof_mids = {m: FB_PROFESSIONS[n] for m, n in kb.name.items() if n in FB_PROFESSIONS}

    def g_int(constraint_lists, build_slots, templates, min_each_bigger=True):
        """constraint_lists: list of (candidates, setfunc).  Random combinations;
        answers = intersection of the constraint sets, each constraint must
        matter (the intersection is smaller than every single set)."""
        first_cands, first_fn = constraint_lists[0]
        for a in shuffled(rng, first_cands):
            sa = first_fn(a)
            if len(sa) < 2:
                continue
            chosen = [a]
            cur = set(sa)
            sets = [sa]
            ok = True
            for cands, fn in constraint_lists[1:]:
                # candidates that cut `cur` but keep something
                opts = []
                for b in cands:
                    sb = fn(b)
                    inter = cur & sb
                    if inter and inter != cur and inter != sb:
                        opts.append(b)
                if not opts:
                    ok = False
                    break
                b = rng.choice(sorted(opts))
                chosen.append(b)
                sets.append(fn(b))
                cur &= fn(b)
            if not ok or not ok_list(cur):
                continue
            if min_each_bigger and any(len(s) <= len(cur) for s in sets):
                continue
            ans = kb.answers(cur)
            if ans is None:
                continue
            yield mk.make("intersection", 0, templates, build_slots(chosen), ans)

    films_country = lambda c: kb.I("film_country", c)
    films_genre = lambda g: kb.I("film_genre", g)
    films_lang = lambda l: kb.I("film_language", l)
    born_in = lambda c: kb.I("birth", c)
    has_prof = lambda p: kb.I("profession", p)

    countries = [c for c in tails("film_country") if kb.anchor_ok(c)
                 and 4 <= len(kb.I("film_country", c)) <= 400]
    genres = sorted(genre_mids)
    langs = [l for l in tails("film_language") if kb.anchor_ok(l)
             and 4 <= len(kb.I("film_language", l)) <= 400]
    cities = [c for c in tails("birth") if kb.anchor_ok(c)
              and 4 <= len(kb.I("birth", c)) <= 120]
    profs = sorted(prof_mids)

    gc_T = ["Which {g} films were made in {C}?",
            "list {g} movies from {C}",
            "what {g} {films} come from {C}?",
            "give me {g} films produced in {C}",
            "name the {films} from {C} that are {g} films"]
    bp_T = ["Which {p} were born in {X}?",
            "list the {p} born in {X}",
            "name {p} whose birthplace is {X}",
            "who are the {p} that were born in {X}?",
            "give me people born in {X} who work as {p}"]
    lg_T = ["Which {g} films are in {L}?",
            "list {L}-language {g} movies",
            "what {g} {films} were made in the {L} language?",
            "give me {g} films in {L}"]
    gcl_T = ["Which {g} films from {C} are in {L}?",
             "list {g} movies made in {C} in the {L} language",
             "name the {L}-language {g} {films} produced in {C}",
             "what {g} films come from {C} and are in {L}?"]
    bpp_T = ["Which people born in {X} are both {p1} and {p2}?",
             "list the {p1} from {X} who are also {p2}",
             "who was born in {X} and works as one of the {p1} and also one of the {p2}?",
             "give me people with {X} as birthplace who are {p1} as well as {p2}"]

    out += interleave(rng, 16, [
        g_int([(genres, films_genre), (countries, films_country)],
              lambda ch: {"g": genre_mids[ch[0]], "C": country_phrase(kb.text(ch[1]))}, gc_T),
        g_int([(cities, born_in), (profs, has_prof)],
              lambda ch: {"X": kb.text(ch[0]), "p": prof_mids[ch[1]]}, bp_T),
        g_int([(genres, films_genre), (langs, films_lang)],
              lambda ch: {"g": genre_mids[ch[0]], "L": lang_phrase(kb.text(ch[1]))}, lg_T),
        g_int([(genres, films_genre), (countries, films_country), (langs, films_lang)],
              lambda ch: {"g": genre_mids[ch[0]], "C": country_phrase(kb.text(ch[1])),
                          "L": lang_phrase(kb.text(ch[2]))}, gcl_T),
        g_int([(cities, born_in), (profs, has_prof), (profs, has_prof)],
              lambda ch: {"X": kb.text(ch[0]), "p1": prof_mids[ch[1]],
                          "p2": prof_mids[ch[2]]}, bpp_T),
    ])

    # ----------------------------------------------------------------- count
    born_count_T = ["How many people in the graph were born in {X}?",
                    "how many people born in {X} are in the knowledge graph?",
                    "count the people in the dataset whose birthplace is {X}",
                    "number of people in the KG born in {X}",
                    "how many persons listed in the data were born in {X}?"]
    died_count_T = ["How many people in the graph died in {X}?",
                    "how many people in the knowledge graph have {X} as place of death?",
                    "count the people in the dataset who died in {X}",
                    "number of people in the KG whose place of death is {X}"]
    dir_count_T = ["How many films directed by {D} are in the graph?",
                   "how many of {D}'s films does the knowledge graph list?",
                   "count the movies in the dataset that {D} directed",
                   "number of {films} directed by {D} in the KG"]
    lang_count_T = ["In how many countries is {L} an official language, according to the graph?",
                    "how many countries in the knowledge graph have {L} as an official language?",
                    "count the countries in the dataset where {L} is official",
                    "number of countries in the KG with {L} as official language"]

    def g_count(cands, fn, templates, slot, render, lo=2, hi=200):
        for c in shuffled(rng, cands):
            if not kb.anchor_ok(c):
                continue
            n = len(fn(c))
            if not (lo <= n <= hi):
                continue
            yield mk.make("count", 0, templates, {slot: render(c)}, [str(n)])

    out += interleave(rng, 14, [
        g_count(tails("birth"), born_in, born_count_T, "X", kb.text, lo=3, hi=60),
        g_count(heads("director_film"), lambda d: kb.F("director_film", d), dir_count_T,
                "D", kb.text, lo=2, hi=25),
        g_count(tails("death"), lambda c: kb.I("death", c), died_count_T, "X", kb.text,
                lo=2, hi=60),
        g_count(tails("official_lang"), lambda l: kb.I("official_lang", l), lang_count_T,
                "L", lambda l: lang_phrase(kb.text(l)), lo=2, hi=60),
    ])
    return out, mk


# ----------------------------------------------------------------------------


def finish(qs, kg):
    counters = collections.Counter()
    for q in qs:
        counters[q["type"]] += 1
        q["qid"] = "own-%s-%s-%03d" % (kg, q["type"], counters[q["type"]])
    keys = ["qid", "question", "answers", "type", "hops", "kg"]
    return [{k: q[k] for k in keys} for q in qs]


def write_jsonl(path, qs):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for q in qs:
            f.write(json.dumps(q, ensure_ascii=False) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default="../shared/data")
    ap.add_argument("--out", default="bench/ownwords")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()

    rng = random.Random(args.seed)
    meta = MetaKB(os.path.join(args.data, "metaqa", "kb.txt"))
    mq, mmk = metaqa_questions(meta, rng)
    fb = FbKB(os.path.join(args.data, "fb15k-237", "FB15k-237.tar.gz"),
              os.path.join(args.data, "fb15k-237", "entity2name.tsv"))
    fq, fmk = fb_questions(fb, rng)

    mq = finish(mq, "metaqa")
    fq = finish(fq, "fb15k")
    os.makedirs(args.out, exist_ok=True)
    write_jsonl(os.path.join(args.out, "questions-metaqa.jsonl"), mq)
    write_jsonl(os.path.join(args.out, "questions-fb15k.jsonl"), fq)

    ok = True
    print("%-8s %-18s %5s %9s" % ("kg", "type", "count", "wordings"))
    for kg, qs, mk in (("metaqa", mq, mmk), ("fb15k", fq, fmk)):
        c = collections.Counter(q["type"] for q in qs)
        for t in sorted(c, key=lambda t: [q["type"] for q in qs].index(t)):
            nw = len(mk.used_templates[t])
            print("%-8s %-18s %5d %9d" % (kg, t, c[t], nw))
            if c[t] < 10 or nw < 4:
                ok = False
    total = len(mq) + len(fq)
    print("total %d (metaqa %d = %.0f%%, fb15k %d)" % (total, len(mq), 100.0 * len(mq) / total, len(fq)))
    if not ok or total < 200:
        print("coverage check FAILED", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
