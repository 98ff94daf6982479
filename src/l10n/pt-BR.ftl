# As palavras do carta em português do Brasil: as do construtor de
# baralhos (`ui-…`) e as mensagens do motor que o jogador lê ali (`rule-…`,
# `deck-…`, `api-…`). Os mesmos ids de en.ftl, com as mesmas variáveis.

## Um baralho diante das suas regras

rule-cards = { $count ->
    [0] 0 cartas
    [one] { $count } carta
   *[other] { $count } cartas
}
rule-counted = { $count } { $count ->
    [0] cartas
    [one] carta
   *[other] cartas
} { $noun }
rule-noun-kinds = de { $kinds }
rule-noun-matching-kinds = de { $kinds } que atendem ao filtro
rule-noun-matching = que atendem ao filtro
rule-either = { $first } ou { $second }
rule-exactly = exatamente { $n }
rule-between = entre { $min } e { $max }
rule-at-least = pelo menos { $n }
rule-at-most = no máximo { $n }
rule-any-number = qualquer número
rule-copies = { $count ->
    [one] { $count } cópia
   *[other] { $count } cópias
}
rule-copies-worst = no máximo { $count } { $count ->
    [one] cópia
   *[other] cópias
} de uma carta
rule-copies-within = cada carta dentro do seu limite
rule-percent-at-most = no máximo { $max }%
rule-share = { $percent } ({ $count } de { $total ->
    [one] { $total } carta
   *[other] { $total } cartas
})
rule-share-largest = o maior, { $group }, com { $percent }
rule-no-cards = nenhuma carta
rule-bind-none = nenhuma carta vinculante única
rule-bind-none-expected = nada (a regra vale quando há exatamente uma)
rule-bind-nothing = nada
rule-bind-has = { $field } { $value }
rule-bind-like = { $field } { $value }, como { $card }
rule-bind-all = todas com { $field } { $value }
rule-bind-of = o { $field } de { $card }
rule-times = { $count ->
    [one] { $count } vez
   *[other] { $count } vezes
}
rule-every-different = todas as cartas diferentes
rule-different = { $count ->
    [one] { $count } diferente
   *[other] { $count } diferentes
}
rule-the-deck = o baralho
rule-broken = { $actual }; a regra *{ $rule }* exige { $expected }
rule-broken-at = { $subject }: { $actual }; a regra *{ $rule }* exige { $expected }
rule-breach = { $subject }: { $actual }

## Um baralho que não pode ser julgado

deck-no-zones = o jogo `{ $game }` não declara zonas de baralho, então não tem baralhos
deck-unknown-zone = `{ $zone }` não é uma zona de `{ $game }`
deck-unknown-card = `{ $card }` não é uma carta de `{ $game }`
deck-zone-kind = `{ $card }` é do tipo `{ $kind }`, que a zona `{ $zone }` não aceita
deck-zone-kind-help = a zona `{ $zone }` ({ $name }) aceita: { $kinds }
deck-unknown-format = `{ $format }` não é um formato de `{ $game }`
deck-no-formats = `{ $game }` não declara formatos: remova `format` para julgar o baralho pelas regras do jogo
deck-did-you-mean = você quis dizer `{ $name }`?
deck-zones-are = zonas: { $names }
deck-formats-are = formatos: { $names }
deck-not-judged = { $message } ({ $code })
deck-not-judged-help = { $message } ({ $code }): { $help }

## Uma lista de baralho em texto

list-syntax = uma linha de carta precisa de um nome depois da quantidade
list-syntax-help = escreva as linhas como `3 Nome da Carta`
list-no-formats = `{ $game }` não declara formatos: remova a linha
list-unknown-zone = `{ $heading }` não é uma zona de `{ $game }`, então as suas linhas ficam de fora
list-zones-are = as zonas são: { $names }
list-bad-count = a quantidade de `{ $name }` deve ser um número inteiro de 1 a { $max }, mas é { $digits }
list-bad-count-help = escreva quantas cópias o baralho tem, de 1 a { $max }; remova a linha para nenhuma
list-too-many = as linhas de `{ $name }` somam mais de { $max } cópias
list-card-help = escreva o nome da carta como o jogo o imprime, ou o seu id
list-ambiguous = `{ $name }` nomeia { $count } cartas
list-ambiguous-help = escreva o id da carta pretendida: { $ids }
list-name-too-long-help = encurte a linha `Name:` para no máximo { $max } caracteres
list-other-game = a lista é de `{ $named }`, não de `{ $game }`
list-other-game-help = abra a lista no construtor do jogo dela

## As recusas do próprio construtor

api-not-judged = o baralho não pôde ser julgado
deck-name-too-long = o nome do baralho tem mais de { $max } caracteres
api-bad-count = a quantidade de `{ $card }` deve ser de 1 a { $max }, não { $count }
api-other-game = este código é um baralho de `{ $named }`, não de `{ $game }`
api-exists = `{ $file }` já existe; salve de novo para substituí-lo


## As chances de uma compra (src/play/)

play-no-zones = `{ $game }` não declara zonas de baralho de onde comprar
play-unknown-zone = `{ $zone }` não é uma zona de `{ $game }`
play-no-hand = `{ $game }` não declara uma mão inicial (`[play] opening-hand`): informe o tamanho da mão
play-hand-bounds = uma mão tem de 1 a { $max } cartas, e a compra de um turno no máximo { $max }
play-turn-bounds = o turno vai de 1 a { $max }


## A coleção do jogador no construtor (src/server/builder/collection.rs)

collection-unknown-card = `{ $card }` não é uma carta de `{ $game }`
collection-bad-count = o número de cópias na coleção vai de 0 a { $max }, não { $count }
collection-has-problems = `{ $file }` tem problemas: linha { $line }, coluna { $column }: { $message } — corrija o arquivo primeiro
collection-other-game = é uma coleção de `{ $game }`
collection-no-parse = não pôde ser lido como TOML

## As páginas do construtor de baralhos

ui-title-games = carta — jogos
ui-title-cards = { $game } — cartas
ui-title-deck = { $game } — construtor de baralhos
ui-title-organize = carta — veredictos de baralhos para organizadores
ui-noscript = Esta página precisa de JavaScript.
ui-language = Idioma
ui-unknown-language = O idioma “{ $asked }” não está disponível: a página está em inglês.
ui-no-json = o servidor não enviou JSON
ui-server-answered = o servidor respondeu { $status }
ui-nav-cards = Cartas
ui-nav-deck = Construtor de baralhos
ui-nav-organize = Organizadores
ui-games = Jogos
ui-browse-cards = ver { $count ->
    [0] 0 cartas
    [one] { $count } carta
   *[other] { $count } cartas
}
ui-build-deck = montar um baralho
ui-no-decks = sem baralhos
ui-search = Buscar
ui-search-placeholder = nome, texto ou marca
ui-kind = Tipo
ui-kind-all = todos
ui-any = qualquer
ui-yes = sim
ui-no = não
ui-range-from = { $field } de
ui-range-to = { $field } até
ui-sort-by = Ordenar por
ui-sort-kind = tipo
ui-sort-name = nome
ui-shown = { $shown } de { $count ->
    [0] 0 cartas
    [one] { $count } carta
   *[other] { $count } cartas
}
ui-pool-label = Cartas
ui-deck-label = O baralho
ui-skip-deck = Pular para o baralho
ui-verdict-label = Veredicto
ui-checking = Verificando…
ui-card-dialog = Carta
ui-new-deck = Novo baralho
ui-own-rules = Regras do próprio { $game }
ui-undo = Desfazer
ui-redo = Refazer
ui-deck-code = Código do baralho
ui-deck-code-label = Código do baralho:
ui-share-link = link para compartilhar
ui-import-placeholder = cole um código de baralho
ui-import-label = Código de baralho a importar
ui-import = Importar
ui-file-placeholder = nome do arquivo (a partir do nome do baralho)
ui-file-label = Nome do arquivo a salvar
ui-save-to = Salvar em { $folder }/
ui-replace = Substituir
ui-share = Compartilhar
ui-filters = Filtros
ui-changed-since = Mudou desde
ui-since-none = nenhuma versão
ui-changed-mark = mudou em { $version }
ui-history = Histórico (agora { $version })
ui-history-was = antes: { $values }
ui-times-help = cópias por adição, até o limite de cópias
ui-add-times = Adicionar ×
ui-find-cards = Encontrar cartas
ui-your-deck = Seu baralho
ui-name = Nome
ui-format = Formato
ui-at-limit = { $card } tem { $count ->
    [one] { $count } cópia
   *[other] { $count } cópias
}, o seu limite
ui-close = Fechar
ui-close-card = Fechar { $card }
ui-would-break = quebraria: { $rules }
ui-add-to = Adicionar { $card } a { $zone }
ui-add-to-blocked = Adicionar { $card } a { $zone } (quebraria uma regra)
ui-cards = { $count ->
    [0] 0 cartas
    [one] { $count } carta
   *[other] { $count } cartas
}
ui-empty-zone = vazio: adicione { $kinds }
ui-breaks = quebra: { $rules }
ui-breaks-sr = (quebra { $rules })
ui-one-less = Uma a menos de { $card }
ui-one-more = Uma a mais de { $card }
ui-legal = Válido
ui-illegal = Inválido
ui-rules-broken = { $count ->
    [0] 0 regras quebradas
    [one] { $count } regra quebrada
   *[other] { $count } regras quebradas
}
ui-all-hold = Todas as regras de { $game } são cumpridas.
ui-has-requires = tem { $actual }; exige { $expected }
ui-rulebook = livro de regras: { $source }
ui-cards-involved = cartas: { $cards }
ui-chart-title = O que as regras limitam
ui-not-judged = Não julgado: { $why }
ui-out-of-date = Desatualizado
ui-outdated-note = O servidor não respondeu ({ $why }): este veredicto é de um baralho anterior. Tentando de novo…
ui-imported = importado
ui-not-imported = não importado: o servidor não respondeu ({ $why })
ui-saving = salvando…
ui-saved-as = salvo como { $file }
ui-not-saved = não salvo: o servidor não respondeu ({ $why }); tente de novo
ui-deck-list = Lista do baralho
ui-list-label = Uma lista em texto (ou um código, ou um link):
ui-list-placeholder = cole uma lista (linhas “3 Nome da Carta” sob os títulos das zonas) ou um código de baralho
ui-list-by = nomear as cartas por
ui-by-name = por nome
ui-by-id = por id
ui-player = Jogador
ui-player-placeholder = jogador (para a lista de torneio)
ui-import-list = Importar lista
ui-export-list = Exportar lista
ui-printable = Lista de torneio para imprimir
ui-reading-list = lendo a lista…
ui-list-problems = não importado: { $count ->
    [one] { $count } problema
   *[other] { $count } problemas
} na lista
ui-use-suggestion = Usar “{ $suggestion }”
ui-replace-at = Usar “{ $suggestion }” no lugar de { $found } na linha { $line }
ui-list-changed = a lista mudou: importe-a de novo
ui-line-column = linha { $line }, coluna { $column }: { $message }
ui-list-exported = o baralho como lista: copie-a da caixa
ui-no-list = sem lista: o servidor não respondeu ({ $why })
ui-no-decklist = sem lista de torneio: o baralho só tem código depois que o servidor o julga
ui-organize-title = Veredictos de baralhos para organizadores
ui-organize-intro = Cole códigos de baralho ou links, um por linha (“Jogador: CÓDIGO” dá o nome do jogador), e/ou escolha arquivos de baralho (.toml; o player = “…” de um arquivo dá o nome do jogador). Cada baralho é julgado pelas regras do seu jogo, ou pelo jogo e formato do evento, quando escolhidos.
ui-codes-label = códigos de baralho, um por linha
ui-codes-placeholder = Ana Lima: <código do baralho>
ui-files-label = arquivos de baralho
ui-event-game = Jogo do evento
ui-any-game = qualquer jogo
ui-game-own-rules = as regras do próprio jogo
ui-judge = Julgar os baralhos
ui-legal-of = { $legal } de { $count ->
    [one] { $count } baralho válido
   *[other] { $count } baralhos válidos
}
ui-download-csv = baixar CSV
ui-col-source = Origem
ui-col-player = Jogador
ui-col-game = Jogo
ui-col-deck = Baralho
ui-col-format = Formato
ui-col-verdict = Veredicto
ui-col-cards = Cartas
ui-col-errors = Erros
ui-col-warnings = Avisos
ui-col-same = Mesmo baralho que
ui-verdict-legal = válido
ui-verdict-illegal = inválido
ui-verdict-invalid = não é um baralho
ui-not-judged-decks = não julgado: o servidor não respondeu ({ $why })

## O painel de teste (play.js): mão de exemplo, chances de compra, curva

ui-play-title = Teste de jogo
ui-play-declared = Mão inicial: { $hand ->
    [one] { $hand } carta
   *[other] { $hand } cartas
} de { $zone }{ $mulligan }; depois, { $draws } por turno, como { $game } declara.
ui-play-declared-mulligan = {" "}(após um mulligan: { $n })
ui-play-undeclared = { $game } não declara uma mão inicial: digite o tamanho da mão. As cartas são compradas de { $zone }.
ui-play-hand-size = Tamanho da mão
ui-play-draws = Cartas compradas em cada turno seguinte
ui-play-hand-title = Mão de exemplo
ui-play-draw = Comprar uma mão
ui-play-mulligan = Mulligan
ui-play-mulligans-spent = { $game } permite { $n ->
    [one] um mulligan
   *[other] { $n } mulligans
} por jogo: compre uma nova mão para recomeçar.
ui-play-next = Comprar a próxima carta
ui-play-hand-list = Sua mão
ui-play-no-hand = Nenhuma mão comprada ainda.
ui-play-new-hand = Nova mão de { $n }, { $left ->
    [one] resta { $left }
   *[other] restam { $left }
} em { $zone }: { $cards }.
ui-play-after-mulligan = Mulligan { $m }: uma mão de { $n }, { $left ->
    [one] resta { $left }
   *[other] restam { $left }
} em { $zone }: { $cards }.
ui-play-drew = Você comprou { $card }: { $n } na mão, { $left ->
    [one] resta { $left }
   *[other] restam { $left }
} em { $zone }.
ui-play-empty-zone = { $zone } está vazio: adicione cartas para comprar uma mão.
ui-play-no-more = Não há mais cartas para comprar em { $zone }.
ui-play-need-hand = Digite primeiro o tamanho da mão.
ui-play-changed = O baralho mudou: compre uma nova mão.
ui-play-odds-title = Chances de compra
ui-play-group = Grupo
ui-play-at-least = Pelo menos
ui-play-by-turn = Até o turno
ui-play-kinds = Tipos
ui-play-flags = Marcadores
ui-play-cards-in = Cartas de { $zone }
ui-play-flag-set = { $title }: sim
ui-play-odds = { $p } de comprar pelo menos { $k } × { $group } até o turno { $t }: { $seen } cartas vistas das { $deck } de { $zone }, { $count } delas { $group }.
ui-play-odds-need = Digite um número inteiro em cada campo.
ui-play-odds-failed = Sem chances: { $why }
ui-play-curve-title = Curva
ui-play-curve-field = Campo
ui-play-curve-of = Cartas de { $zone } por { $field }
ui-play-cards = cartas
ui-play-none = nenhum
ui-play-no-curve = Nenhum campo inteiro para mostrar.

## A coleção do jogador (collection.js): só as que tenho, cópias,
## cópias que faltam ao lado do veredito

ui-owned-only = Só as que tenho
ui-owned-edit = Editar minha coleção
ui-owned-count = { $count } na coleção
ui-owned-group = Cópias de { $card } na coleção
ui-owned-more = Mais uma cópia de { $card } na coleção
ui-owned-less = Uma cópia de { $card } a menos na coleção
ui-owned-saving = salvando…
ui-owned-saved = salvo em { $file }
ui-owned-not-saved = não salvo: { $why }
ui-owned-no-answer = não salvo: o servidor não respondeu ({ $why })
ui-owned-none = ainda sem coleção: a primeira contagem feita aqui cria { $file }
ui-owned-from = coleção: { $file }
ui-owned-problems = { $file } tem problemas (corrija-o para editá-lo aqui):
ui-owned-problem = linha { $line }, coluna { $column }: { $message }
ui-owned-copies = { $count ->
    [one] { $count } cópia
   *[other] { $count } cópias
}
ui-owned-cards = { $count ->
    [one] { $count } carta
   *[other] { $count } cartas
}
ui-owned-missing-title = Faltam { $copies } de { $cards } na sua coleção
ui-owned-missing-line = { $card }: { $count ->
    [one] falta { $count }
   *[other] faltam { $count }
} (o baralho precisa de { $needed }, você tem { $owned })
ui-owned-complete = Sua coleção tem todas as cópias de que este baralho precisa.
ui-owned-unusable = { $file } não foi lido: { $why }
ui-owned-note = Ter as cartas não é uma regra do jogo: o veredito não conta isso.
