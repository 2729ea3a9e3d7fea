#!/usr/bin/env python3
"""chaindev: a development question set for tuning question understanding on ordinary wording.

What it is
    A seeded generator of multi-hop and intersection questions over the MetaQA movie KB and
    FB15k-237, phrased the way ordinary people type into a search box or an assistant: questions,
    commands and bare fragments, varied vocabulary (film/movie/picture/flick, directed/made/helmed,
    wrote/penned/scripted), some entirely lower case, many without a question mark.  Gold answers
    are computed here from the triples only (complete sets, exact labels).

    Tune on this set.  Measure on bench/ownwords, which nobody tunes on.

Who wrote it, under which rule
    Written by a helper session for the kgrag project under a strict independence rule: while
    writing it the author did not read the product code (core/, batch-jobs/, udfs/), bench/ownwords,
    bench/srag, bench/auto/opdev.py, nor any benchmark question file (metaqa qa_*.txt,
    erqa-sample/*).  Only the data README, kb.txt, the FB15k-237 triples and entity names were read.
    Every wording template below was written by the author; none imitates a benchmark template.

Command
    python3 bench/auto/chaindev.py --data ../shared/data --out <dir> [--seed 4242]
    writes <dir>/chaindev-metaqa.jsonl and <dir>/chaindev-fb15k.jsonl, one JSON object a line:
    {"qid", "question", "answers" (sorted), "type", "hops", "kg", "anchors"}.
    Standard library only; deterministic for a given seed (byte-identical reruns).
    Prints counts and distinct wordings per type; exits 1 if a type has under 15 questions or
    under 5 wordings.

Data rules kept here
    MetaQA: no chain passes through a merged title (more than one release year, or more than four
    actors); anchors have two or more words, are unique ignoring case, and are never both a film
    and a person/genre/language/tag.  FB15k-237: anchors and answers never use a name shared by
    several MIDs (ignoring case and a trailing -GB/-US tag); questions drop that tag, answers keep
    the exact label.  Every middle node has the next relation; answer sets hold 1-40 entities; a
    given answer set is used at most twice per chain kind.
"""
import argparse
import collections
import json
import os
import random
import re
import sys
import tarfile

MAX_ANS = 40
SET_REUSE = 2          # a distinct answer set at most this often per chain kind
LOWER_SHARE = 0.25     # share of questions written entirely in lower case
NOQ_SHARE = 0.35       # share of questions without a question mark ...
CMD_SHARE = 0.27       # ... of which commands/fragments; the rest are questions typed without '?'

# Everyday words: an anchor made only of these is skipped (titles like "The End", places like "Bay").
EVERYDAY = set("""
a an the of in on at to for and or with without from by up down out over under into about after
before again all any back bad best big black blue boy boys girl girls day days dead death dog end
eye eyes face father fire first friend friends game girl go going gold good great green happy heart
heat her him his home house i in it is kid kids king last life light little live love lost man men
money mother my name new night no not old one other out people play real red road room run secret
see she sky star stars still stop story sun take the them they thing things this time top town true
two up us war water way we what white who wild woman women world year years yes you young your
am are be been being can could did do does done had has have here how if just know make made me
more most much must never now off only our over said say so some than that then there these those
through too very was were when where which while why will wish with would want come came get got
give gone let like look made need own same should something tell think want well went here above
below around again against head hand hands body mind soul heaven hell human resources change
power city country street family school party business office house lady gentleman gentlemen
mister miss mr mrs brother brothers sister sisters son sons daughter daughters baby babies child
children husband wife wives lovers lover kiss kisses touch dream dreams hope fear truth lies lie
long short high low hot cold dark bright open close closed early late hard easy free fast slow
full empty rich poor sweet bitter strange perfect simple private public final last next half
whole morning evening tonight today tomorrow yesterday summer winter spring autumn fall week
month hour minute moment forever always nothing everything someone something everyone nobody
street place places land sea river mountain island road roads sky earth moon rain snow wind storm
another every each
""".split())


# ----------------------------------------------------------------------------------------------
# wording helpers

def poss_ok(name):
    """A possessive reads unambiguously: no trailing s/x/z, no inner punctuation that ends a phrase."""
    return not re.search(r"[sSxXzZ]$", name) and not re.search(r"[:!?,;()'\"&]", name)


def possessive(name):
    return name + "'s"


def words(name):
    return [w for w in re.split(r"[\s\-]+", name.strip()) if w]


def everyday(name):
    ws = [re.sub(r"[^a-z0-9]", "", w.lower()) for w in words(name)]
    ws = [w for w in ws if w]
    return not ws or all(w in EVERYDAY for w in ws)


def strip_gb(label):
    """FB15k-237 labels sometimes carry a locale tag ("Actor-GB", "Yemen-US"); questions drop it."""
    return label[:-3] if label.endswith(("-GB", "-US")) else label


THE_WORDS = ("United ", "Republic", "Kingdom", "Soviet", "Czech Republic", "Dominican Republic",
             "Netherlands", "Philippines", "Bahamas", "Gambia", "Maldives", "Central African",
             "Democratic Republic", "Ivory Coast", "Holy See", "Vatican", "Isle of Man",
             "Russian Empire", "Ottoman Empire", "Byzantine Empire", "Roman Empire")


def place_phrase(label):
    """Country/place as it reads in a sentence: 'the United Kingdom', 'the Czech Republic', 'France'."""
    n = strip_gb(label)
    if n.startswith("The "):
        return "the " + n[4:]
    if n.startswith(THE_WORDS) or " States" in n or n.endswith((" Islands", " Republic", " Empire", " Union",
                                                                " Kingdom", " Emirates")):
        return "the " + n
    return n


def plural_word(w):
    lw = w.lower()
    if lw == "person":
        return "people"
    if lw.endswith("person"):
        return w[:-6] + "people"
    if lw.endswith("man") and lw not in ("german", "shaman"):
        return w[:-3] + "men"
    if re.search(r"[^aeiou]y$", lw):
        return w[:-1] + "ies"
    if lw.endswith(("s", "sh", "ch", "x", "z")):
        return w + "es"
    return w + "s"


def profession_plural(label):
    """'Film Producer-GB' -> 'film producers', 'Businessperson-GB' -> 'businesspeople'."""
    n = strip_gb(label).lower()
    parts = n.split(" ")
    parts[-1] = "-".join(parts[-1].split("-")[:-1] + [plural_word(parts[-1].split("-")[-1])])
    return " ".join(parts)


def language_word(label):
    n = strip_gb(label)
    for suf in (" Language", " language"):
        if n.endswith(suf):
            n = n[: -len(suf)]
    return n


# ----------------------------------------------------------------------------------------------
# templates: per chain kind ("sub-kind"), at least five wordings each, written for this set.
# Placeholders: {x} anchor, {xs} anchor possessive, {a} {b} named constraints, {g} genre adjective,
# {y} year, {l} language word, {p} profession plural, {n} demonym, {gv} government noun phrase,
# {c} / {cs} country phrase / its possessive.  A template ending in '?' is a question; others are
# commands or bare fragments.

T = {}

# ---- MetaQA, one hop
T["mq.film_director"] = [
    "who directed {x}?", "{x} director", "who was the director of the movie {x}?",
    "name the director of {x}", "who made the film {x}?", "who helmed {x}?",
    "who was {xs} director?",
]
T["mq.film_writer"] = [
    "who wrote {x}?", "{x} screenwriter", "who penned the script for {x}?",
    "tell me who wrote the film {x}", "who scripted the movie {x}?", "writer of {x}",
]
T["mq.film_actors"] = [
    "who starred in {x}?", "{x} cast", "who acted in the movie {x}?", "list the actors in {x}",
    "who was in {x}?", "show me the cast of the film {x}", "which actors appear in {x}?",
]
T["mq.film_year"] = [
    "when did {x} come out?", "{x} release year", "what year was the movie {x} released?",
    "{x} came out in which year?", "tell me the year {x} was released",
    "what year is the film {x} from?",
]
T["mq.film_language"] = [
    "what language is {x} in?", "{x} language", "which language was the film {x} made in?",
    "in what language is the movie {x}?", "tell me the language of {x}",
    "what language do they speak in {x}?",
]
T["mq.film_genre"] = [
    "what genre is {x}?", "{x} genre", "what kind of movie is {x}?",
    "which genre does the film {x} belong to?", "tell me what type of film {x} is",
    "what sort of picture is {x}?",
]
T["mq.actor_films"] = [
    "what movies has {x} been in?", "{x} films", "list the movies {x} acted in",
    "which films did {x} appear in?", "show me movies starring {x}", "what has {x} played in?",
    "what films was {x} in?",
]
T["mq.director_films"] = [
    "what films did {x} direct?", "movies directed by {x}", "list everything {x} has directed",
    "which pictures did {x} helm?", "what movies did {x} make as director?",
    "show me films by director {x}",
]
T["mq.writer_films"] = [
    "what movies did {x} write?", "films written by {x}", "which films did {x} pen the script for?",
    "list the movies {x} scripted", "{x} writing credits", "what has {x} written for the screen?",
]

# ---- MetaQA, two hops
T["mq.actor_film_director"] = [
    "who directed the movies {x} acted in?", "directors of films starring {x}",
    "which directors has {x} worked with?", "list the directors of movies featuring {x}",
    "directors {x} has worked with", "who has directed {x} in a film?",
    "name the filmmakers who directed {x}",
]
T["mq.actor_costar"] = [
    "who has {x} acted with?", "{x} co-stars", "which actors appeared in films with {x}?",
    "list people who shared the screen with {x}", "who starred alongside {x}?",
    "name actors who were in a movie with {x}",
]
T["mq.director_film_actor"] = [
    "which actors have worked with director {x}?", "who starred in films directed by {x}?",
    "actors in movies by {x}", "list the actors {x} has directed",
    "who has appeared in a picture helmed by {x}?", "cast members of films made by {x}",
]
T["mq.writer_film_director"] = [
    "who directed the films written by {x}?", "directors of movies scripted by {x}",
    "which directors have filmed scripts by {x}?", "name the directors of films penned by {x}",
    "who made the movies that {x} wrote?", "list directors who worked from {xs} screenplays",
]
T["mq.writer_film_actor"] = [
    "who acted in movies written by {x}?", "actors in films scripted by {x}",
    "which actors have starred in something {x} wrote?", "list the cast of films penned by {x}",
    "name performers who appeared in {xs} screenplays", "show me actors from movies written by {x}",
]
T["mq.film_director_film"] = [
    "what else did the director of {x} make?", "other films by the director of {x}",
    "which other movies were directed by the person who directed {x}?",
    "list other pictures from {xs} director", "show me more movies by whoever directed {x}",
    "{x} director other films",
]
T["mq.film_actor_film"] = [
    "what other movies did the cast of {x} appear in?", "other films with the actors from {x}",
    "which other films feature actors from {x}?", "list other movies starring the {x} cast",
    "in what other films have the actors of {x} played?", "{x} cast other movies",
]
T["mq.film_writer_film"] = [
    "what else did the writer of {x} write?", "other films by the screenwriter of {x}",
    "which other movies were written by the writers of {x}?",
    "list other films by whoever wrote {x}", "{x} writer other movies",
    "show me other pictures penned by the author of {x}",
]
T["mq.actor_film_genre"] = [
    "what genres of movies has {x} been in?", "genres of films starring {x}",
    "what kinds of films does {x} act in?", "list the genres of the movies {x} appeared in",
    "{x} movie genres", "which film genres has {x} worked in?",
]
T["mq.director_film_year"] = [
    "in which years did {x} release films?", "when were the movies directed by {x} released?",
    "release years of films by {x}", "what years did {x} have a film come out?",
    "list the years movies directed by {x} came out", "{x} films release years",
]

# ---- MetaQA, three hops
T["mq.film_dir_film_actor"] = [
    "who acted in films directed by the director of {x}?",
    "actors who worked with the director of {x}",
    "which actors have starred in movies made by whoever directed {x}?",
    "list the cast members of films by the director of {x}",
    "name actors who appeared in pictures helmed by the same director as {x}",
    "who has been in a movie by {xs} director?",
]
T["mq.film_writer_film_director"] = [
    "who directed movies written by the writer of {x}?",
    "directors of films scripted by the screenwriter of {x}",
    "which directors have worked with scripts by whoever wrote {x}?",
    "list the directors of movies penned by {xs} writer",
    "who directed the films that the writer of {x} wrote?",
    "directors who filmed screenplays by the writer of {x}",
]
T["mq.film_actor_film_director"] = [
    "who directed movies starring the cast of {x}?",
    "directors of films featuring actors from {x}",
    "which directors have worked with the actors of {x}?",
    "list directors of movies with {x} cast members",
    "name the directors who have directed someone from the cast of {x}",
    "who has directed an actor from {x}?",
]
T["mq.actor_film_dir_film"] = [
    "what films were made by directors who worked with {x}?",
    "movies by directors {x} has worked with",
    "list films directed by anyone who directed {x}",
    "which movies have been directed by {xs} directors?",
    "show me all films by the directors of {x} movies",
    "what pictures did the directors of films starring {x} make?",
]
T["mq.film_dir_film_genre"] = [
    "what genres has the director of {x} worked in?", "genres of movies by the director of {x}",
    "which kinds of films does the person who directed {x} make?",
    "list the genres of films made by {xs} director", "{x} director film genres",
    "what type of movies does whoever directed {x} direct?",
]
T["mq.film_dir_film_writer"] = [
    "who wrote the films directed by the director of {x}?",
    "writers of movies by the director of {x}",
    "which screenwriters have worked with the director of {x}?",
    "list writers whose scripts were filmed by whoever directed {x}",
    "name the writers who collaborated with {xs} director",
    "screenwriters on films helmed by the director of {x}",
]

# ---- MetaQA, intersections
T["mq.two_actors"] = [
    "which movies star both {a} and {b}?", "films with {a} and {b}",
    "what have {a} and {b} been in together?", "list movies where {a} appears alongside {b}",
    "{a} and {b} movies together", "show me films featuring both {a} and {b}",
]
T["mq.director_actor"] = [
    "which films did {a} direct with {b} in the cast?", "movies directed by {a} starring {b}",
    "{b} films directed by {a}", "list movies by {a} that {b} acted in",
    "what has {b} done with director {a}?", "show me pictures helmed by {a} featuring {b}",
]
T["mq.genre_actor"] = [
    "which {g} movies has {a} been in?", "{g} films with {a}", "list {g} movies starring {a}",
    "show me {g} flicks featuring {a}", "what {g} pictures did {a} act in?",
    "{a} {g} movies",
]
T["mq.genre_director"] = [
    "what {g} films did {a} direct?", "{g} movies directed by {a}",
    "list the {g} pictures {a} made", "show me {g} flicks helmed by {a}",
    "which {g} movies has {a} directed?", "{a} {g} films",
]
T["mq.genre_writer"] = [
    "which {g} films did {a} write?", "{g} movies written by {a}",
    "list {g} films scripted by {a}", "what {g} movies has {a} penned?",
    "{a} {g} screenplays", "show me {g} pictures with a screenplay by {a}",
]
T["mq.year_actor"] = [
    "which films with {a} came out in {y}?", "{a} movies from {y}",
    "list films starring {a} released in {y}", "{y} films with {a}",
    "which {y} releases feature {a}?", "what was {a} in that came out in {y}?",
]
T["mq.year_director"] = [
    "which films did {a} direct in {y}?", "{a} films released in {y}",
    "movies by {a} that came out in {y}", "list {y} pictures directed by {a}",
    "what did {a} direct that was released in {y}?", "show me {a} movies from {y}",
]

# ---- FB15k-237, one hop
T["fb.birthplace"] = [
    "where was {x} born?", "{x} birthplace", "{x} was born where?",
    "what's the birthplace of {x}?", "tell me where {x} was born", "place of birth of {x}",
]
T["fb.nationality"] = [
    "what nationality is {x}?", "{x} nationality", "which country is {x} a citizen of?",
    "what country is {x} a national of?", "tell me {xs} nationality", "citizenship of {x}",
]
T["fb.profession"] = [
    "what does {x} do for a living?", "{x} occupation", "what are {xs} professions?",
    "list the professions of {x}", "what jobs has {x} had?", "what kind of work does {x} do?",
]
T["fb.film_director"] = [
    "who directed {x}?", "{x} director", "who was behind the camera on {x}?",
    "name the director of the film {x}", "who helmed the movie {x}?", "who made the picture {x}?",
]
T["fb.film_music"] = [
    "who composed the music for {x}?", "{x} composer", "who wrote the score of {x}?",
    "name the composer of the film {x}", "who did the music in {x}?",
    "who scored the movie {x}?",
]
T["fb.film_writer"] = [
    "who wrote the movie {x}?", "{x} writers", "who penned {x}?",
    "list the writers of {x}", "who is credited as writer of the film {x}?",
    "writing credits for the picture {x}",
]
T["fb.capital"] = [
    "what is the capital of {c}?", "capital of {c}", "{c} capital city",
    "which city is the capital of {c}?", "tell me {cs} capital", "what's {cs} capital?",
]
T["fb.official_language"] = [
    "what language is official in {c}?", "official languages of {c}",
    "which languages have official status in {c}?", "what do they officially speak in {c}?",
    "{c} official language", "list the official languages of {c}",
]
T["fb.government"] = [
    "what type of government does {c} have?", "{c} form of government",
    "how is {c} governed?", "what kind of political system does {c} have?",
    "name the form of government of {c}", "government type of {c}",
]
T["fb.founders"] = [
    "who founded {x}?", "founders of {x}", "who started {x}?", "{x} was founded by whom?",
    "list the people who founded {x}", "who set up {x}?",
]
T["fb.team_sport"] = [
    "what sport is played by {x}?", "{x} sport", "which sport is {x} a team in?",
    "tell me which sport {x} plays", "name the sport of {x}", "what sport does the team {x} play?",
]

# ---- FB15k-237, two hops
T["fb.film_dir_films"] = [
    "what other films did the director of {x} make?", "other movies by the director of {x}",
    "which other pictures were directed by whoever made {x}?",
    "list other films from {xs} director", "{x} director other movies",
    "show me more films by the person who directed {x}",
]
T["fb.film_writer_films"] = [
    "what else did the writers of {x} write?", "other films written by the writer of {x}",
    "which other movies were written by whoever wrote {x}?",
    "list other films credited to the writers of {x}", "{x} writer other films",
    "show me other pictures penned by the writer of {x}",
]
T["fb.film_composer_films"] = [
    "what other films did the composer of {x} score?",
    "other movies scored by whoever did the music for {x}",
    "which other films has the {x} composer written music for?",
    "list other movies with music by the composer of {x}", "{x} composer other films",
    "show me other pictures scored by {xs} composer",
]
T["fb.actor_film_directors"] = [
    "which directors has {x} worked with?", "directors of movies starring {x}",
    "who directed the films {x} appeared in?", "list the filmmakers who directed {x}",
    "name everyone who directed a movie with {x} in it", "{x} films directors",
]
T["fb.place_people_prof"] = [
    "what professions do people born in {x} have?", "occupations of people born in {x}",
    "what do people who were born in {x} do for a living?",
    "list the jobs of people born in {x}", "{x}-born people professions",
    "what kinds of careers have people born in {x} had?",
]
T["fb.person_birth_country"] = [
    "which country was {x} born in?", "{x} country of birth", "{x} was born in which country?",
    "tell me the country where {x} was born", "in what country is {xs} birthplace?",
    "birth country of {x}",
]
T["fb.film_director_birthplace"] = [
    "where was the director of {x} born?", "birthplace of the director of {x}",
    "the person who directed {x} was born where?", "{x} director place of birth",
    "tell me where the director of the film {x} was born",
    "in which place was the man or woman who directed {x} born?",
]
T["fb.country_lang_countries"] = [
    "which other countries share an official language with {c}?",
    "other countries with the same official language as {c}",
    "list countries that have an official language in common with {c}",
    "name other nations where an official language of {c} is also official",
    "what other countries have an official language {c} also has?",
    "countries sharing an official language with {c}",
]

# ---- FB15k-237, intersections
T["fb.film_gcl"] = [
    "{g} films from {c} in {l}", "which {l}-language {g} movies were made in {c}?",
    "list {g} movies produced in {c} in the {l} language",
    "show me {l}-language {g} pictures from {c}", "what {g} films made in {c} are in {l}?",
    "{l} {g} flicks made in {c}",
]
T["fb.film_gc"] = [
    "{g} movies made in {c}", "which {g} films come from {c}?", "list {g} pictures produced in {c}",
    "show me {g} flicks from {c}", "what {g} movies were made in {c}?", "{g} films from {c}",
]
T["fb.birth_prof"] = [
    "which {p} were born in {x}?", "{p} born in {x}", "list {p} who were born in {x}",
    "name the {p} whose birthplace is {x}", "{x}-born {p}", "show me {p} born in {x}",
]
T["fb.nat_prof"] = [
    "{n} {p}", "which {p} are {n}?", "list {n} {p}", "name the {p} with {n} citizenship",
    "who are the {n} {p}?", "show me {p} of {n} nationality",
]
T["fb.costars"] = [
    "who was in both {a} and {b}?", "actors in {a} and {b}",
    "which actors appeared in {a} as well as {b}?", "list the actors who played in both {a} and {b}",
    "name performers who acted in {a} and also in {b}", "who starred in both the movie {a} and the movie {b}?",
]
T["fb.gov_lang"] = [
    "which {gv} have {l} as an official language?", "{gv} where {l} is official",
    "list {gv} with {l} as an official language", "name the {gv} whose official languages include {l}",
    "in which {gv} is {l} an official language?", "{l}-speaking {gv}",
]
T["fb.award_both"] = [
    "who won both the {a} and the {b}?", "winners of the {a} and the {b}",
    "which people have received the {a} as well as the {b}?",
    "list everyone who won the {a} and also the {b}", "name recipients of both the {a} and the {b}",
    "who has won the {a} and the {b}?",
]

# ---- genre / nationality / government surface forms
MQ_GENRE = {
    "Comedy": "comedy", "Drama": "drama", "Horror": "horror", "Action": "action",
    "Thriller": "thriller", "Crime": "crime", "War": "war", "Adventure": "adventure",
    "Documentary": "documentary", "Western": "western", "Musical": "musical", "Fantasy": "fantasy",
    "Mystery": "mystery", "Romance": "romance", "Animation": "animated", "Family": "family",
    "Sport": "sports", "Biography": "biographical", "History": "historical",
}
FB_GENRE = {
    "Thriller": "thriller", "Action Film": "action", "Romance Film": "romance",
    "Adventure Film": "adventure", "Crime Fiction": "crime", "Fantasy": "fantasy",
    "Science Fiction": "science fiction", "Mystery": "mystery", "War film": "war",
    "Indie film": "indie", "Romantic comedy": "romantic comedy", "Animation": "animated",
    "Biographical film": "biographical", "Musical": "musical", "Horror": "horror",
    "Comedy-drama": "comedy-drama", "Costume drama": "costume drama", "Black comedy": "black comedy",
    "Psychological thriller": "psychological thriller", "Political drama": "political drama",
    "Superhero movie": "superhero", "Coming of age": "coming-of-age", "Spy film": "spy",
    "Teen film": "teen", "Western": "western", "Period piece": "period", "Epic film": "epic",
    "Buddy film": "buddy", "Parody": "parody", "Satire": "satirical", "Docudrama": "docudrama",
    "Martial Arts Film": "martial arts", "Disaster Film": "disaster", "Slasher": "slasher",
    "Sports": "sports", "Family": "family", "Documentary film": "documentary",
}
DEMONYM = {
    "United States of America": "American", "England": "English", "United Kingdom": "British",
    "India": "Indian", "Canada": "Canadian", "Germany": "German", "France": "French",
    "Italy": "Italian", "Australia": "Australian", "Japan": "Japanese",
    "Republic of Ireland": "Irish", "Scotland": "Scottish", "China": "Chinese",
    "Austria": "Austrian", "Wales": "Welsh", "Russia": "Russian", "Spain": "Spanish",
    "Israel": "Israeli", "Sweden": "Swedish", "Mexico": "Mexican", "Hungary": "Hungarian",
    "South Africa": "South African", "Switzerland": "Swiss", "Cuba": "Cuban", "Greece": "Greek",
    "Denmark-GB": "Danish", "Argentina": "Argentine", "Netherlands": "Dutch", "Brazil": "Brazilian",
    "Jamaica": "Jamaican", "Poland": "Polish", "Norway": "Norwegian", "South Korea": "South Korean",
    "New Zealand": "New Zealand", "Belgium": "Belgian", "Finland": "Finnish", "Pakistan": "Pakistani",
    "Iran": "Iranian", "Philippines": "Filipino", "Ukraine": "Ukrainian", "Serbia": "Serbian",
    "Northern Ireland": "Northern Irish", "Puerto Rico": "Puerto Rican",
}
GOV_PHRASE = {
    "Republic": "republics", "Unitary state": "unitary states",
    "Parliamentary system": "countries with a parliamentary system",
    "Presidential system": "countries with a presidential system",
    "Constitutional monarchy": "constitutional monarchies", "Democracy": "democracies",
}


# ----------------------------------------------------------------------------------------------
# the set builder

class SetBuilder:
    def __init__(self, kg, rng):
        self.kg = kg
        self.rng = rng
        self.items = []                        # dicts with type, hops, sub, text, tid, ...
        self.used_anchor = set()               # entity anchors used once per KG
        self.set_use = collections.Counter()   # (sub, answers) -> uses
        self.constraint_use = collections.Counter()  # (sub, label) -> uses
        self.rotation = {}                     # sub -> [order, pointer]
        self.type_stats = collections.defaultdict(lambda: [0, 0])   # type -> [questions, no '?']

    def _template(self, sub, fields, want_question=False):
        tpl = T[sub]
        if sub not in self.rotation:
            order = list(range(len(tpl)))
            self.rng.shuffle(order)
            self.rotation[sub] = [order, 0]
        order, ptr = self.rotation[sub]
        for k in range(len(order)):
            i = order[(ptr + k) % len(order)]
            t = tpl[i]
            if "{xs}" in t and (fields.get("_film") or not poss_ok(fields.get("x", ""))):
                continue
            if "{cs}" in t and not poss_ok(fields.get("c", "")):
                continue
            if want_question and not t.endswith("?"):
                continue
            self.rotation[sub][1] = (ptr + k + 1) % len(order)
            f = {k: v for k, v in fields.items() if not k.startswith("_")}
            if "x" in f:
                f["xs"] = possessive(f["x"])
            if "c" in f:
                f["cs"] = possessive(f["c"])
            text = t.format(**f)
            text = re.sub(r"\bthe (The|the) ", r"\1 ", text)      # "the {x} cast" with x = "The ..."
            if not t.startswith("{") or text.startswith("the "):
                text = text[0].upper() + text[1:]
            return i, text
        raise RuntimeError("no usable template for " + sub)

    def fill(self, qtype, hops, sub, n, cands, build, max_constraint_use=2, multi=0):
        """Take n questions; the first `multi` of them must have at least two answers."""
        if multi:
            got = self._fill(qtype, hops, sub, multi, cands, build, max_constraint_use, 2, warn=False)
            self._fill(qtype, hops, sub, n - got, cands, build, max_constraint_use, 1)
        else:
            self._fill(qtype, hops, sub, n, cands, build, max_constraint_use, 1)

    def _fill(self, qtype, hops, sub, n, cands, build, max_constraint_use, min_ans, warn=True):
        """cands: sorted candidates; build(c) -> None or (answers, anchors, fields, keys, constraints)."""
        cands = list(cands)
        self.rng.shuffle(cands)
        got = 0
        for c in cands:
            if got == n:
                break
            r = build(c)
            if r is None:
                continue
            answers, anchors, fields, keys, constraints = r
            answers = sorted(set(answers))
            if not min_ans <= len(answers) <= MAX_ANS:
                continue
            if any(k in self.used_anchor for k in keys):
                continue
            sk = (sub, tuple(answers))
            if self.set_use[sk] >= SET_REUSE:
                continue
            if any(self.constraint_use[(sub, x)] >= max_constraint_use for x in constraints):
                continue
            st = self.type_stats[qtype]
            want_q = st[1] + 1 > CMD_SHARE * (st[0] + 1)   # keep the no-'?' share near its target
            tid, text = self._template(sub, fields, want_q)
            st[0] += 1
            st[1] += 0 if text.endswith("?") else 1
            self.used_anchor.update(keys)
            self.set_use[sk] += 1
            for x in constraints:
                self.constraint_use[(sub, x)] += 1
            self.items.append({"type": qtype, "hops": hops, "sub": sub, "tid": tid, "text": text,
                               "answers": answers, "anchors": list(anchors)})
            got += 1
        if got < n and warn:
            print("warning: %s %s: only %d of %d" % (self.kg, sub, got, n), file=sys.stderr)
        return got

    def finish(self, order):
        """Apply the lower-case and no-question-mark quotas per type, shuffle within type, number."""
        out = []
        for qtype in order:
            its = [it for it in self.items if it["type"] == qtype]
            its.sort(key=lambda it: (it["sub"], it["text"]))
            self.rng.shuffle(its)
            n = len(its)
            noq_have = [i for i, it in enumerate(its) if not it["text"].endswith("?")]
            need = max(0, round(NOQ_SHARE * n) - len(noq_have))
            qs = [i for i, it in enumerate(its) if it["text"].endswith("?")]
            for i in sorted(self.rng.sample(qs, min(need, len(qs)))):
                its[i]["text"] = its[i]["text"][:-1]
            for i in sorted(self.rng.sample(range(n), round(LOWER_SHARE * n))):
                its[i]["text"] = its[i]["text"].lower()
            for k, it in enumerate(its, 1):
                out.append({
                    "qid": "chaindev-%s-%s-%03d" % (self.kg, qtype, k),
                    "question": it["text"],
                    "answers": it["answers"],
                    "type": qtype,
                    "hops": it["hops"],
                    "kg": self.kg,
                    "anchors": it["anchors"],
                    "_wording": (it["sub"], it["tid"]),
                })
        return out


# ----------------------------------------------------------------------------------------------
# MetaQA

def load_metaqa(path):
    out = collections.defaultdict(lambda: collections.defaultdict(set))
    inn = collections.defaultdict(lambda: collections.defaultdict(set))
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n").rstrip("\r")
            if not line:
                continue
            h, r, t = line.split("|")
            out[r][h].add(t)
            inn[r][t].add(h)
    return out, inn


def build_metaqa(kb_path, rng, seed):
    out, inn = load_metaqa(kb_path)
    DB, WB, SA, RY, IL, HG = ("directed_by", "written_by", "starred_actors", "release_year",
                              "in_language", "has_genre")
    films = set()
    for r in out:
        films.update(out[r])
    persons = set(inn[DB]) | set(inn[WB]) | set(inn[SA])
    nonfilm = persons | set(inn[HG]) | set(inn[IL]) | set(inn["has_tags"])
    every = set(films)
    for r in inn:
        every.update(inn[r])
    lower = collections.defaultdict(set)
    for s in every:
        lower[s.lower()].add(s)
    # Merged remakes: more than one release year; or more than four actors, which no single film
    # in this KB has (a film lists at most four) - "Blown Away" (1992 + 1994) has one year, five actors.
    merged = {f for f in films if len(out[RY].get(f, ())) > 1 or len(out[SA].get(f, ())) > 4}
    dual = {s for s in films if s in nonfilm}

    def mid_film(f):
        return f not in merged and f not in dual

    def mid_person(p):
        return p not in films

    def anchor_ok(s):
        return (len(lower[s.lower()]) == 1 and not s.endswith("?") and s not in dual and s not in merged
                and len(words(s)) >= 2 and not everyday(s) and not s.isdigit())

    def films_of(p, rel):
        return inn[rel].get(p, set())

    b = SetBuilder("metaqa", rng)
    film_anchors = sorted(f for f in films if anchor_ok(f))

    def person_anchors(rel):
        return sorted(p for p in inn[rel] if anchor_ok(p) and 2 <= len(inn[rel][p]) <= 25)

    actors, directors, writers = person_anchors(SA), person_anchors(DB), person_anchors(WB)

    # -- hop1
    def f_out(rel):
        def build(x):
            ans = out[rel].get(x)
            if not ans:
                return None
            return ans, [x], {"x": x, "_film": True}, [x], []
        return build

    def p_films(rel):
        def build(x):
            return films_of(x, rel), [x], {"x": x}, [x], []
        return build

    b.fill("hop1", 1, "mq.film_director", 3, film_anchors, f_out(DB))
    b.fill("hop1", 1, "mq.film_writer", 3, film_anchors, f_out(WB))
    b.fill("hop1", 1, "mq.film_actors", 3, film_anchors, f_out(SA))
    b.fill("hop1", 1, "mq.film_year", 3, film_anchors, f_out(RY))
    b.fill("hop1", 1, "mq.film_language", 2, film_anchors, f_out(IL))
    b.fill("hop1", 1, "mq.film_genre", 3, film_anchors, f_out(HG))
    b.fill("hop1", 1, "mq.actor_films", 3, actors, p_films(SA))
    b.fill("hop1", 1, "mq.director_films", 3, directors, p_films(DB))
    b.fill("hop1", 1, "mq.writer_films", 2, writers, p_films(WB))

    # -- chains
    def step(nodes, rel, inverse, node_ok):
        """Follow rel from every node; None if a node is unsafe or lacks the relation."""
        res = set()
        for v in sorted(nodes):
            if not node_ok(v):
                return None
            nxt = (inn if inverse else out)[rel].get(v)
            if not nxt:
                return None
            res |= nxt
        return res

    def chain(x, steps, exclude_start=False):
        """steps: [(rel, inverse, check for the nodes we leave)]; the anchor itself is not checked."""
        nodes = {x}
        for i, (rel, inv, ok) in enumerate(steps):
            nodes = step(nodes, rel, inv, ok if i > 0 else (lambda v: True))
            if nodes is None:
                return None
        if exclude_start:
            nodes = nodes - {x}
        elif x in nodes:
            return None           # a chain that comes back to its own anchor reads ambiguously
        return nodes

    def mk(steps, exclude_start=False, person_start=False):
        def build(x):
            if person_start:
                first = (inn if steps[0][1] else out)[steps[0][0]].get(x, set())
                if not 2 <= len(first) <= 25:
                    return None
            ans = chain(x, steps, exclude_start)
            if not ans:
                return None
            return ans, [x], {"x": x, "_film": x in films}, [x], []
        return build

    anyok = lambda v: True  # noqa: E731
    b.fill("hop2", 2, "mq.actor_film_director", 3, actors,
           mk([(SA, True, anyok), (DB, False, mid_film)], person_start=True))
    b.fill("hop2", 2, "mq.actor_costar", 3, actors,
           mk([(SA, True, anyok), (SA, False, mid_film)], exclude_start=True, person_start=True))
    b.fill("hop2", 2, "mq.director_film_actor", 3, directors,
           mk([(DB, True, anyok), (SA, False, mid_film)], person_start=True))
    b.fill("hop2", 2, "mq.writer_film_director", 3, writers,
           mk([(WB, True, anyok), (DB, False, mid_film)], person_start=True))
    b.fill("hop2", 2, "mq.film_director_film", 3, film_anchors,
           mk([(DB, False, anyok), (DB, True, mid_person)], exclude_start=True))
    b.fill("hop2", 2, "mq.film_actor_film", 3, film_anchors,
           mk([(SA, False, anyok), (SA, True, mid_person)], exclude_start=True))
    b.fill("hop2", 2, "mq.film_writer_film", 3, film_anchors,
           mk([(WB, False, anyok), (WB, True, mid_person)], exclude_start=True))
    b.fill("hop2", 2, "mq.actor_film_genre", 3, actors,
           mk([(SA, True, anyok), (HG, False, mid_film)], person_start=True))
    b.fill("hop2", 2, "mq.director_film_year", 3, directors,
           mk([(DB, True, anyok), (RY, False, mid_film)], person_start=True))
    b.fill("hop2", 2, "mq.writer_film_actor", 3, writers,
           mk([(WB, True, anyok), (SA, False, mid_film)], person_start=True))

    b.fill("hop3", 3, "mq.film_dir_film_actor", 5, film_anchors,
           mk([(DB, False, anyok), (DB, True, mid_person), (SA, False, mid_film)]))
    b.fill("hop3", 3, "mq.film_writer_film_director", 4, film_anchors,
           mk([(WB, False, anyok), (WB, True, mid_person), (DB, False, mid_film)]))
    b.fill("hop3", 3, "mq.film_actor_film_director", 4, film_anchors,
           mk([(SA, False, anyok), (SA, True, mid_person), (DB, False, mid_film)]))
    b.fill("hop3", 3, "mq.actor_film_dir_film", 4, actors,
           mk([(SA, True, anyok), (DB, False, mid_film), (DB, True, mid_person)], person_start=True))
    b.fill("hop3", 3, "mq.film_dir_film_genre", 4, film_anchors,
           mk([(DB, False, anyok), (DB, True, mid_person), (HG, False, mid_film)]))
    b.fill("hop3", 3, "mq.film_dir_film_writer", 4, film_anchors,
           mk([(DB, False, anyok), (DB, True, mid_person), (WB, False, mid_film)]))

    # -- intersections: films in both of two named sets; each set must lose something
    def inter_ok(sa, sb):
        ans = sa & sb
        if not ans or ans == sa or ans == sb:
            return None
        if any(f in merged for f in ans):
            return None
        return ans

    def two_people(rel_a, rel_b, pool_b):
        def build(a):
            fa = films_of(a, rel_a)
            partners = set()
            for f in fa:
                partners |= out[rel_b].get(f, set())
            partners.discard(a)
            cands = sorted(p for p in partners if p in pool_b)
            random.Random("%d|%s|%s" % (seed, a, rel_b)).shuffle(cands)
            for p in cands:
                if p in b.used_anchor:
                    continue
                ans = inter_ok(fa, films_of(p, rel_b))
                if ans:
                    return ans, [a, p], {"a": a, "b": p}, [a, p], []
            return None
        return build

    b.fill("intersection", 1, "mq.two_actors", 4, actors, two_people(SA, SA, set(actors)), multi=2)
    b.fill("intersection", 1, "mq.director_actor", 4, directors, two_people(DB, SA, set(actors)), multi=2)

    def with_attr(sub, rel_p, rel_attr, labels):
        """films of a person that also carry a named attribute (genre / year)."""
        def build(a):
            fa = films_of(a, rel_p)
            vals = set()
            for f in fa:
                vals |= out[rel_attr].get(f, set())
            vals = sorted(v for v in vals if labels is None or v in labels)
            random.Random("%d|%s|%s" % (seed, a, rel_attr)).shuffle(vals)
            for v in vals:
                if b.constraint_use[(sub, v)] >= 2:
                    continue
                ans = inter_ok(fa, inn[rel_attr].get(v, set()))
                if ans:
                    f = {"a": a}
                    if rel_attr == HG:
                        f["g"] = MQ_GENRE[v]
                    else:
                        f["y"] = v
                    return ans, [v, a], f, [a], [v]
            return None
        return build

    for sub, n, rel, pool in (("mq.genre_actor", 4, SA, actors), ("mq.genre_director", 3, DB, directors),
                              ("mq.genre_writer", 3, WB, writers)):
        b.fill("intersection", 1, sub, n, pool, with_attr(sub, rel, HG, MQ_GENRE), multi=n // 2)
    for sub, n, rel, pool in (("mq.year_actor", 4, SA, actors), ("mq.year_director", 3, DB, directors)):
        b.fill("intersection", 1, sub, n, pool, with_attr(sub, rel, RY, None), multi=n // 2)
    return b.finish(["hop1", "hop2", "hop3", "intersection"])


# ----------------------------------------------------------------------------------------------
# FB15k-237

ACT = "/film/actor/film./film/performance/film"
DIR = "/film/director/film"
WR = "/film/film/written_by"
MUS = "/film/film/music"
GEN = "/film/film/genre"
FCTRY = "/film/film/country"
FLANG = "/film/film/language"
POB = "/people/person/place_of_birth"
NAT = "/people/person/nationality"
PROF = "/people/person/profession"
CAP = "/location/country/capital"
OFF = "/location/country/official_language"
GOV = "/location/country/form_of_government"
FOUND = "/organization/organization_founder/organizations_founded"
SPORT = "/sports/sports_team/sport"
BIBC = "/base/biblioness/bibs_location/country"
AWW = "/award/award_category/winners./award/award_honor/award_winner"


def load_fb(d):
    name = {}
    with open(os.path.join(d, "entity2name.tsv"), encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n").rstrip("\r")
            if line:
                m, n = line.split("\t", 1)
                name[m] = n
    out = collections.defaultdict(lambda: collections.defaultdict(set))
    inn = collections.defaultdict(lambda: collections.defaultdict(set))
    deg = collections.Counter()
    with tarfile.open(os.path.join(d, "FB15k-237.tar.gz")) as tf:
        for part in ("train.txt", "valid.txt", "test.txt"):
            data = tf.extractfile(part).read().decode("utf-8")
            for line in data.splitlines():
                line = line.strip()
                if not line:
                    continue
                h, r, t = line.split("\t")
                out[r][h].add(t)
                inn[r][t].add(h)
                deg[h] += 1
                deg[t] += 1
    return name, out, inn, deg


def build_fb(d, rng, seed):
    name, out, inn, deg = load_fb(d)
    keycount = collections.Counter(strip_gb(n).lower() for n in name.values())

    def uniq(m):
        return m in name and keycount[strip_gb(name[m]).lower()] == 1

    def disp(m):
        return strip_gb(name[m])

    def labels(ms):
        ms = set(ms)
        if not all(uniq(m) for m in ms):
            return None
        return sorted(name[m] for m in ms)

    def anchor_ok(m, two_words=True):
        if not uniq(m) or name[m].endswith("?"):
            return False
        n = disp(m)
        if everyday(n):
            return False
        if two_words and len(words(n)) < 2:
            return False
        return True

    def srt(ms):
        return sorted(ms, key=lambda m: (name[m], m))

    b = SetBuilder("fb15k", rng)
    persons = set(out[PROF]) | set(out[POB]) | set(out[NAT])
    person_anchors = srt(m for m in persons if anchor_ok(m) and 8 <= deg[m] <= 150)
    film_set = set(out[GEN]) | set(out[FCTRY]) | set(out[WR]) | set(out[MUS]) | set(inn[DIR])
    film_anchors = srt(m for m in film_set if anchor_ok(m) and deg[m] <= 250)
    # Present-day countries: those with statistics (GDP, religions, ...).  Historical states
    # (Austria-Hungary, Kingdom of Prussia, Soviet Union, ...) have none; a question about
    # countries never names one nor returns one, so that gold stays what a reader expects.
    current = set()
    for r in out:
        if r.startswith("/location/statistical_region/"):
            current.update(out[r])
    countries = srt(m for m in set(out[CAP]) | set(out[OFF]) | set(out[GOV])
                    if m in current and anchor_ok(m, two_words=False))

    def simple(rel, inverse=False, kind="x"):
        def build(x):
            ans = (inn if inverse else out)[rel].get(x)
            if not ans:
                return None
            lab = labels(ans)
            if lab is None:
                return None
            f = {"x": disp(x), "_film": x in film_set} if kind == "x" else {"c": place_phrase(name[x])}
            return lab, [name[x]], f, [x], []
        return build

    # -- hop1
    b.fill("hop1", 1, "fb.birthplace", 3, person_anchors, simple(POB))
    b.fill("hop1", 1, "fb.nationality", 2, person_anchors, simple(NAT))
    b.fill("hop1", 1, "fb.profession", 3, person_anchors, simple(PROF))
    b.fill("hop1", 1, "fb.film_director", 3, film_anchors, simple(DIR, inverse=True))
    b.fill("hop1", 1, "fb.film_music", 2, film_anchors, simple(MUS))
    b.fill("hop1", 1, "fb.film_writer", 2, film_anchors, simple(WR))
    b.fill("hop1", 1, "fb.capital", 2, countries, simple(CAP, kind="c"))
    b.fill("hop1", 1, "fb.official_language", 2, countries, simple(OFF, kind="c"))
    b.fill("hop1", 1, "fb.government", 2, countries, simple(GOV, kind="c"))
    orgs = srt(m for m in inn[FOUND] if anchor_ok(m, two_words=False) and deg[m] <= 150)
    b.fill("hop1", 1, "fb.founders", 2, orgs, simple(FOUND, inverse=True))
    giveaway = re.compile(r"football|soccer|hockey|baseball|basketball|cricket|rugby|national", re.I)
    teams = srt(m for m in out[SPORT] if anchor_ok(m, two_words=False) and deg[m] <= 150
                and not giveaway.search(name[m]))
    b.fill("hop1", 1, "fb.team_sport", 2, teams, simple(SPORT))

    # -- hop2
    def two_step(r1, inv1, r2, inv2, exclude_start=False, first_range=None, kind="x"):
        def build(x):
            mids = (inn if inv1 else out)[r1].get(x, set())
            if not mids:
                return None
            if first_range and not first_range[0] <= len(mids) <= first_range[1]:
                return None
            ans = set()
            for m in mids:
                nxt = (inn if inv2 else out)[r2].get(m)
                if not nxt:
                    return None
                ans |= nxt
            if exclude_start:
                ans.discard(x)
            elif x in ans:
                return None
            if not ans or (kind == "c" and not ans <= current):
                return None
            lab = labels(ans)
            if lab is None:
                return None
            f = {"x": disp(x), "_film": x in film_set} if kind == "x" else {"c": place_phrase(name[x])}
            return lab, [name[x]], f, [x], []
        return build

    b.fill("hop2", 2, "fb.film_dir_films", 4, film_anchors, two_step(DIR, True, DIR, False, True))
    b.fill("hop2", 2, "fb.film_writer_films", 4, film_anchors, two_step(WR, False, WR, True, True))
    b.fill("hop2", 2, "fb.film_composer_films", 3, film_anchors, two_step(MUS, False, MUS, True, True))
    actor_anchors = srt(m for m in out[ACT] if anchor_ok(m) and 2 <= len(out[ACT][m]) <= 25)
    b.fill("hop2", 2, "fb.actor_film_directors", 4, actor_anchors, two_step(ACT, False, DIR, True))
    # "born in X" must mean what the KG records: skip places that contain other birthplaces
    # (states, countries, boroughs with neighbourhoods), whose people are mostly recorded deeper down.
    CONTAINS = "/location/location/contains"
    leaf = {m for m in inn[POB] if not any(c in inn[POB] for c in out[CONTAINS].get(m, ()))}
    places = srt(m for m in leaf if anchor_ok(m, two_words=False) and 2 <= len(inn[POB][m]) <= 25)
    b.fill("hop2", 2, "fb.place_people_prof", 4, places, two_step(POB, True, PROF, False))
    b.fill("hop2", 2, "fb.person_birth_country", 4, person_anchors, two_step(POB, False, BIBC, False))
    b.fill("hop2", 2, "fb.film_director_birthplace", 4, film_anchors, two_step(DIR, True, POB, False))
    b.fill("hop2", 2, "fb.country_lang_countries", 3, countries,
           two_step(OFF, False, OFF, True, True, kind="c"))

    # -- intersections: every constraint must remove something
    def strict(sets):
        allset = set.intersection(*sets)
        if not allset:
            return None
        for i in range(len(sets)):
            rest = set.intersection(*[s for j, s in enumerate(sets) if j != i])
            if rest == allset:
                return None
        return allset

    genres = [m for m in srt(inn[GEN]) if uniq(m) and name[m] in FB_GENRE]
    fcountries = [m for m in srt(inn[FCTRY]) if uniq(m)]
    flangs = [m for m in srt(inn[FLANG]) if uniq(m)]

    combos = []
    for g in genres:
        for c in fcountries:
            gc = inn[GEN][g] & inn[FCTRY][c]
            if not gc:
                continue
            for lg in flangs:
                combos.append((g, c, lg))

    def build_gcl(t):
        g, c, lg = t
        ans = strict([inn[GEN][g], inn[FCTRY][c], inn[FLANG][lg]])
        if not ans:
            return None
        lab = labels(ans)
        if lab is None:
            return None
        f = {"g": FB_GENRE[name[g]], "c": place_phrase(name[c]), "l": language_word(name[lg])}
        return lab, [name[g], name[c], name[lg]], f, [], [g, c, lg]
    b.fill("intersection", 1, "fb.film_gcl", 4, combos, build_gcl, max_constraint_use=1)

    combos = [(g, c) for g in genres for c in fcountries]

    def build_gc(t):
        g, c = t
        ans = strict([inn[GEN][g], inn[FCTRY][c]])
        if not ans:
            return None
        lab = labels(ans)
        if lab is None:
            return None
        f = {"g": FB_GENRE[name[g]], "c": place_phrase(name[c])}
        return lab, [name[g], name[c]], f, [], [g, c]
    b.fill("intersection", 1, "fb.film_gc", 3, combos, build_gc, max_constraint_use=1)

    profs = [m for m in srt(inn[PROF]) if uniq(m)]
    bplaces = [m for m in srt(leaf) if anchor_ok(m, two_words=False) and len(inn[POB][m]) >= 3]
    combos = [(p, q) for p in bplaces for q in profs if inn[POB][p] & inn[PROF][q]]

    def build_bp(t):
        p, q = t
        ans = strict([inn[POB][p], inn[PROF][q]])
        if not ans:
            return None
        lab = labels(ans)
        if lab is None:
            return None
        f = {"x": place_phrase(name[p]), "p": profession_plural(name[q])}
        return lab, [name[p], name[q]], f, [], [p, q]
    b.fill("intersection", 1, "fb.birth_prof", 4, combos, build_bp, max_constraint_use=1)

    nats = [m for m in srt(inn[NAT]) if uniq(m) and name[m] in DEMONYM]
    combos = [(nn, q) for nn in nats for q in profs if inn[NAT][nn] & inn[PROF][q]]

    def build_np(t):
        nn, q = t
        ans = strict([inn[NAT][nn], inn[PROF][q]])
        if not ans:
            return None
        lab = labels(ans)
        if lab is None:
            return None
        f = {"n": DEMONYM[name[nn]], "p": profession_plural(name[q])}
        return lab, [name[nn], name[q]], f, [], [nn, q]
    b.fill("intersection", 1, "fb.nat_prof", 4, combos, build_np, max_constraint_use=1)

    cast_films = srt(m for m in inn[ACT] if anchor_ok(m) and m in film_set)

    def build_costars(f1):
        cast1 = inn[ACT][f1]
        others = set()
        for a in cast1:
            others |= out[ACT][a]
        others.discard(f1)
        cands = [m for m in srt(others) if m in cast_films and m not in b.used_anchor]
        random.Random("%d|%s" % (seed, f1)).shuffle(cands)
        for f2 in cands:
            ans = strict([cast1, inn[ACT][f2]])
            if not ans:
                continue
            lab = labels(ans)
            if lab is None:
                continue
            return lab, [name[f1], name[f2]], {"a": disp(f1), "b": disp(f2)}, [f1, f2], []
        return None
    b.fill("intersection", 1, "fb.costars", 4, cast_films, build_costars)

    govs = [m for m in srt(inn[GOV]) if uniq(m) and name[m] in GOV_PHRASE]
    olangs = [m for m in srt(inn[OFF]) if uniq(m)]
    combos = [(g, lg) for g in govs for lg in olangs]

    def build_gl(t):
        g, lg = t
        ans = strict([inn[GOV][g], inn[OFF][lg]])
        if not ans or not ans <= current:
            return None
        lab = labels(ans)
        if lab is None:
            return None
        f = {"gv": GOV_PHRASE[name[g]], "l": language_word(name[lg])}
        return lab, [name[g], name[lg]], f, [], [g, lg]
    b.fill("intersection", 1, "fb.gov_lang", 3, combos, build_gl)

    awards = [m for m in srt(out[AWW]) if uniq(m)]
    combos = []
    for i, a1 in enumerate(awards):
        for a2 in awards[i + 1:]:
            if out[AWW][a1] & out[AWW][a2]:
                combos.append((a1, a2))

    def build_aw(t):
        a1, a2 = t
        ans = strict([out[AWW][a1], out[AWW][a2]])
        if not ans:
            return None
        lab = labels(ans)
        if lab is None:
            return None
        return lab, [name[a1], name[a2]], {"a": disp(a1), "b": disp(a2)}, [], [a1, a2]
    b.fill("intersection", 1, "fb.award_both", 3, combos, build_aw, max_constraint_use=1)

    return b.finish(["hop1", "hop2", "intersection"])


# ----------------------------------------------------------------------------------------------

def write(items, path):
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for it in items:
            rec = {k: v for k, v in it.items() if not k.startswith("_")}
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")


def report(kg, items):
    ok = True
    by = collections.OrderedDict()
    for it in items:
        by.setdefault(it["type"], []).append(it)
    for qtype, its in by.items():
        wordings = {it["_wording"] for it in its}
        lower = sum(1 for it in its if it["question"] == it["question"].lower())
        noq = sum(1 for it in its if not it["question"].endswith("?"))
        print("%-7s %-13s questions %3d  wordings %3d  lower-case %2d  no '?' %2d"
              % (kg, qtype, len(its), len(wordings), lower, noq))
        if len(its) < 15 or len(wordings) < 5:
            ok = False
    return ok


def main():
    short = [k for k, v in T.items() if len(set(v)) < 5]
    if short:
        sys.exit("fewer than five wordings for: " + ", ".join(short))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True, help="the shared data folder (holds metaqa/, fb15k-237/)")
    ap.add_argument("--out", required=True, help="output folder")
    ap.add_argument("--seed", type=int, default=4242)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    mq = build_metaqa(os.path.join(args.data, "metaqa", "kb.txt"), random.Random(args.seed), args.seed)
    fb = build_fb(os.path.join(args.data, "fb15k-237"), random.Random(args.seed + 1), args.seed)
    write(mq, os.path.join(args.out, "chaindev-metaqa.jsonl"))
    write(fb, os.path.join(args.out, "chaindev-fb15k.jsonl"))
    ok = report("metaqa", mq)
    ok = report("fb15k", fb) and ok
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
