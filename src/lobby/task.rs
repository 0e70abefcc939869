//! The lobby task: it owns the [`LobbyState`], carries out its effects
//! (spawning the rooms, keeping each session's inbox and each room's
//! handle), answers the [`LobbyHandle`]'s questions and publishes the
//! counts.

use super::*;

/// How long the counts stay on screen before the next change, with
/// `online` people on this host. Each lobby screen also shows a change
/// after a delay of its own within this time (see `server::conn`), so the
/// redraws are spread over it rather than all at once.
pub(crate) fn stats_interval(online: usize) -> Duration {
    let online = u32::try_from(online).unwrap_or(u32::MAX);
    (Duration::from_secs(1) * online / STATS_REDRAWS_PER_SEC)
        .clamp(STATS_INTERVAL, STATS_INTERVAL_MAX)
}

/// Hands a command to a room without holding up the lobby, and without
/// dropping it when the room's queue is full (five hundred people asking to
/// watch one game at once): a task waits for the room. There is at most
/// one such task per session's request, and the lobby's own queue bounds
/// the requests.
fn send_to_room(room: &RoomHandle, cmd: RoomCmd) {
    // In order with what follows when there is room (the usual case).
    let Err(cmd) = room.try_give(cmd) else {
        return;
    };
    let room = room.clone();
    tokio::spawn(async move { room.send(cmd).await });
}

/// Starts the lobby task.
pub fn spawn(settings: LobbySettings) -> LobbyHandle {
    let (tx, rx) = mpsc::channel(LOBBY_QUEUE);
    let (stats_tx, stats_rx) = watch::channel(Stats::default());
    let rooms = TaskTracker::new();
    let lobby = Lobby {
        services: RoomServices {
            lobby: tx.clone(),
            computer: settings.computer,
            recorder: settings.recorder,
            tracker: rooms.clone(),
            claim_after: settings.claim_after,
            reconnect_grace: settings.reconnect_grace,
            max_spectators: settings.max_spectators,
            chat_max: settings.chat_max,
            metrics: Arc::clone(&settings.metrics),
        },
        state: LobbyState::new(settings.games, crate::rng::make_rng(None))
            .with_now(now())
            .with_match_wait(settings.match_wait)
            .with_clocks(settings.clocks)
            .with_cluster(settings.across.is_some()),
        across: settings.across,
        visiting: HashMap::new(),
        inboxes: HashMap::new(),
        rooms: HashMap::new(),
        stats_tx,
    };
    tokio::spawn(lobby.run(rx));
    LobbyHandle {
        tx,
        stats: stats_rx,
        rooms,
    }
}

/// The lobby task: the state, and the channels its effects go through.
struct Lobby {
    state: LobbyState,
    /// Each member's inbox (the members of `state`, no others).
    inboxes: HashMap<SessionId, crate::mailbox::Sender<ToSession>>,
    /// Cluster mode: the way to the other hosts.
    across: Option<mpsc::Sender<Across>>,
    /// Visitors about to be seated: their seat's inbox, both ends.
    visiting: HashMap<
        SessionId,
        (
            Visitor,
            crate::mailbox::Sender<ToSession>,
            crate::mailbox::Receiver<ToSession>,
        ),
    >,
    /// The rooms in play: the handle and its state, for those seated.
    rooms: HashMap<RoomId, (RoomHandle, watch::Receiver<Arc<RoomState>>)>,
    stats_tx: watch::Sender<Stats>,
    /// What the rooms share: the way back here, the computer, the
    /// recorder, the task tracker.
    services: RoomServices,
}

impl Lobby {
    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        let mut tick = tokio::time::interval(STATS_INTERVAL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut stats_shown: Option<tokio::time::Instant> = None;
        loop {
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.command(cmd),
                    None => break,
                },
                at = tick.tick() => {
                    // Quick-match windows widen with the wait.
                    let effects = self.state.tick(now());
                    self.carry_out(effects);
                    let due = stats_shown.is_none_or(|shown| {
                        at >= shown + stats_interval(self.state.online_here())
                    });
                    if due && let Some(stats) = self.state.take_stats() {
                        self.stats_tx.send_replace(stats);
                        stats_shown = Some(at);
                    }
                }
            }
        }
    }

    fn command(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Join {
                arrival,
                inbox,
                reply,
            } => {
                self.inboxes.insert(arrival.id, inbox);
                let (name, effects) = self.state.join(arrival);
                self.carry_out(effects);
                let _ = reply.send(name);
            }
            Cmd::Do(cmd) => {
                self.state.set_now(now());
                let effects = self.state.handle(cmd);
                self.carry_out(effects);
            }
            Cmd::Games { reply } => {
                let _ = reply.send(self.games());
            }
            Cmd::People { id, reply } => {
                let _ = reply.send(self.state.people(id));
            }
            Cmd::Cluster {
                remote,
                people,
                reply,
            } => {
                self.state.set_remote(remote);
                self.state.set_remote_people(people);
                let effects = self.state.take_effects();
                self.carry_out(effects);
                let _ = reply.send((self.state.local_stats(), self.state.local_people()));
            }
            Cmd::Reserve { id, kind, reply } => {
                let _ = reply.send(self.state.reserve(id, kind));
            }
            Cmd::Release { id, kind } => {
                let effects = self.state.release(id, kind);
                self.carry_out(effects);
            }
            Cmd::OpenAcross {
                id,
                kind,
                visitor,
                reply,
            } => {
                self.state.set_now(now());
                match self.state.open_across(id, kind, visitor) {
                    Some((_, effects)) => {
                        self.carry_out(effects);
                        let _ = reply.send(true);
                    }
                    None => {
                        let _ = reply.send(false);
                    }
                }
            }
            Cmd::CodeUnknown {
                id,
                code,
                from_login,
            } => {
                let effects = self.state.code_unknown(id, code, from_login);
                self.carry_out(effects);
            }
            Cmd::WatchElsewhere { id, reply } => {
                let answer = match (
                    self.inboxes.get(&id).cloned(),
                    self.state.watch_elsewhere(id),
                ) {
                    (Some(inbox), Some(name)) => Some((name, inbox)),
                    _ => None,
                };
                let effects = self.state.take_effects();
                self.carry_out(effects);
                let _ = reply.send(answer);
            }
            Cmd::WatchForVisitor { room, reply } => {
                let answer = match (self.rooms.get(&room), self.state.ghost_watcher(room)) {
                    (Some((handle, _)), Ok(ghost)) => {
                        let (tx, rx) = crate::mailbox::channel(4);
                        send_to_room(
                            handle,
                            RoomCmd::Watch {
                                id: ghost,
                                inbox: tx,
                            },
                        );
                        Ok((handle.clone(), ghost, rx))
                    }
                    (None, _) => Err(Refusal::GameEnded),
                    (_, Err(why)) => Err(why),
                };
                let _ = reply.send(answer);
            }
            Cmd::CarryOn {
                id,
                key,
                game,
                reply,
            } => {
                let Carried {
                    rules,
                    seats,
                    rated,
                    clock,
                    resumed,
                    from,
                } = *game;
                match self.state.carry_on(id, &key, seats) {
                    Ok((room, seats)) => {
                        let mut resumed = resumed;
                        // The other player's seat waits for them.
                        resumed.away = seats
                            .each_ref()
                            .map(|s| matches!(s, Occupant::Human { id: sid, .. } if *sid != id));
                        let opening = resumed.opening;
                        let table = NewTable {
                            room,
                            rules,
                            seats,
                            rated,
                            clock,
                            opening,
                        };
                        self.open_room(table, Some(resumed), Some(from));
                        self.tell(id, Notice::Joined(room));
                        let _ = reply.send(Ok(room));
                    }
                    Err(why) => {
                        let _ = reply.send(Err(why));
                    }
                }
                let effects = self.state.take_effects();
                self.carry_out(effects);
            }
            Cmd::Tell { id, news } => self.tell(id, Notice::Told(news)),
            Cmd::RejoinForVisitor {
                room,
                key,
                visitor,
                reply,
            } => {
                let answer = match self.rooms.get(&room) {
                    Some((handle, state)) => {
                        let ghost = self.state.new_ghost();
                        let (tx, rx) = crate::mailbox::channel(64);
                        send_to_room(
                            handle,
                            RoomCmd::Rejoin {
                                key,
                                id: ghost,
                                inbox: tx,
                            },
                        );
                        self.across(Across::Opened {
                            handle: handle.clone(),
                            state: state.clone(),
                            ghost,
                            visitor,
                            inbox: rx,
                        });
                        Ok(())
                    }
                    None => Err(Refusal::GameEnded),
                };
                let _ = reply.send(answer);
            }
            Cmd::InvitedFromAfar {
                host,
                to,
                invitation,
                reply,
            } => {
                self.state.set_now(now());
                let done = self.state.invited_from_afar(&host, to, invitation);
                self.answer(done, reply);
            }
            Cmd::InviteRefused {
                inviter,
                host,
                session,
                why,
            } => {
                let effects = self.state.invitation_refused(inviter, &host, session, why);
                self.carry_out(effects);
            }
            Cmd::OpenFor {
                to,
                visitor,
                ratings,
                reply,
            } => {
                self.state.set_now(now());
                let done = match to {
                    crate::protocol::JoinTo::Room(code) => {
                        self.state.open_for_visitor(&code, visitor, ratings)
                    }
                    crate::protocol::JoinTo::Inviter(inviter) => {
                        self.state.open_for_invitee(inviter, visitor, ratings)
                    }
                };
                self.answer(done, reply);
            }
            Cmd::LeaveToJoin { id, reply } => {
                let answer = match (self.inboxes.get(&id).cloned(), self.state.leave_to_join(id)) {
                    (Some(inbox), Some(seeker)) => Some((seeker, inbox)),
                    _ => None,
                };
                let effects = self.state.take_effects();
                self.carry_out(effects);
                let _ = reply.send(answer);
            }
            Cmd::LeaveFor { id, kind, reply } => {
                let answer = match (self.state.leave_for(id, kind), self.inboxes.get(&id)) {
                    (Some((seeker, effects)), Some(inbox)) => {
                        let inbox = inbox.clone();
                        self.carry_out(effects);
                        Some((seeker, inbox))
                    }
                    _ => None,
                };
                let _ = reply.send(answer);
            }
        }
    }

    /// Carries out what the state did for someone on another host, and
    /// tells them it is done, or why not.
    fn answer(
        &mut self,
        done: Result<Vec<Effect>, Refusal>,
        reply: oneshot::Sender<Result<(), Refusal>>,
    ) {
        let _ = reply.send(done.map(|effects| self.carry_out(effects)));
    }

    /// Spawns a table, each seat with its session's inbox (a visitor's
    /// from another host included), and keeps its handle; in cluster mode
    /// the cluster keeps its game in NATS (`from`: the key and revision of
    /// a game carried on from another host).
    fn open_room(
        &mut self,
        table: NewTable,
        resumed: Option<room::Resumed>,
        from: Option<(String, u64)>,
    ) -> (RoomHandle, watch::Receiver<Arc<RoomState>>) {
        let seats = table.seats.map(|seat| {
            let inbox = match &seat {
                Occupant::Human { id, .. } => self
                    .inboxes
                    .get(id)
                    .or_else(|| self.visiting.get(id).map(|v| &v.1))
                    .cloned(),
                Occupant::Computer { .. } => None,
            };
            (seat, inbox)
        });
        let opened = room::spawn(
            table.room,
            table.rules,
            seats,
            table.rated,
            table.clock,
            table.opening,
            resumed,
            &self.services,
        );
        self.across(Across::Kept {
            room: table.room,
            handle: opened.0.clone(),
            state: opened.1.clone(),
            from,
        });
        self.rooms.insert(table.room, opened.clone());
        opened
    }

    fn across(&self, msg: Across) {
        if let Some(tx) = &self.across
            && tx.try_send(msg).is_err()
        {
            tracing::warn!(
                "the cluster is not keeping up: a quick-match ticket or table was dropped"
            );
        }
    }

    /// The games in play anyone may watch, most watched first, then the
    /// longest; at most [`GAMES_LISTED`].
    fn games(&self) -> Vec<GameSummary> {
        let mut games: Vec<GameSummary> = self
            .rooms
            .iter()
            .filter(|(room, _)| self.state.watchable(**room))
            .filter_map(|(&room, (_, state))| {
                let st = state.borrow();
                let v = &st.view;
                if v.ending.is_some() || st.ids.iter().all(Option::is_none) {
                    return None;
                }
                Some(GameSummary {
                    room,
                    game: v.position.rules().describe(),
                    players: [0, 1].map(|i| {
                        let seat = &v.seats[i];
                        match seat.rating {
                            Some(r) => format!("{} {r}", seat.label()),
                            None => seat.label(),
                        }
                    }),
                    rated: v.rated,
                    moves: v.position.stones(),
                    watchers: v.watchers,
                    host: None,
                    facts: Some(Box::new(crate::protocol::summary::SummaryFacts::of(v))),
                })
            })
            .collect();
        games.sort_by(GameSummary::order);
        games.truncate(GAMES_LISTED);
        games
    }

    fn carry_out(&mut self, effects: Vec<Effect>) {
        let paired = self.state.take_paired_since();
        if !paired.is_empty() {
            let now = now();
            for since in paired {
                self.services
                    .metrics
                    .quick_match_wait
                    .observe(now.saturating_duration_since(since).as_secs_f64());
            }
        }
        for effect in effects {
            match effect {
                Effect::Tell { to, notice } => self.tell(to, notice),
                Effect::OpenRoom(table) => {
                    let visitors: Vec<SessionId> = table
                        .seats
                        .iter()
                        .filter_map(|seat| match seat {
                            Occupant::Human { id, .. } if self.visiting.contains_key(id) => {
                                Some(*id)
                            }
                            _ => None,
                        })
                        .collect();
                    let opened = self.open_room(table, None, None);
                    for ghost in visitors {
                        if let Some((visitor, _, inbox)) = self.visiting.remove(&ghost) {
                            self.across(Across::Opened {
                                handle: opened.0.clone(),
                                state: opened.1.clone(),
                                ghost,
                                visitor,
                                inbox,
                            });
                        }
                    }
                }
                Effect::Visit {
                    room: _,
                    ghost,
                    visitor,
                } => {
                    let (tx, rx) = crate::mailbox::channel(64);
                    self.visiting.insert(ghost, (visitor, tx, rx));
                }
                Effect::Across(ask) => self.across(Across::Ask(ask)),
                Effect::AcceptAcross {
                    id,
                    host,
                    inviter,
                    seeker,
                } => {
                    if let Some(inbox) = self.inboxes.get(&id) {
                        let inbox = inbox.clone();
                        self.across(Across::Accept {
                            id,
                            host,
                            inviter,
                            seeker,
                            inbox,
                        });
                    }
                }
                Effect::Forget { id } => {
                    self.inboxes.remove(&id);
                }
                Effect::RoomGone { room } => {
                    self.rooms.remove(&room);
                }
                Effect::Watch { room, id } => {
                    if let (Some((handle, _)), Some(inbox)) =
                        (self.rooms.get(&room), self.inboxes.get(&id))
                    {
                        send_to_room(
                            handle,
                            RoomCmd::Watch {
                                id,
                                inbox: inbox.clone(),
                            },
                        );
                    }
                }
                Effect::Rejoin { room, key, id } => {
                    if let (Some((handle, _)), Some(inbox)) =
                        (self.rooms.get(&room), self.inboxes.get(&id))
                    {
                        send_to_room(
                            handle,
                            RoomCmd::Rejoin {
                                key,
                                id,
                                inbox: inbox.clone(),
                            },
                        );
                    }
                }
                Effect::AbortRooms { reason } => {
                    // Waiting for room queues, never dropping: each of these
                    // games must be stopped and recorded.
                    let rooms: Vec<RoomHandle> =
                        self.rooms.values().map(|(room, _)| room.clone()).collect();
                    // In a cluster, the games go on elsewhere: each table
                    // hands its game over to NATS as it stands.
                    let hand_over = self.across.is_some();
                    tokio::spawn(async move {
                        for room in rooms {
                            room.send(if hand_over {
                                RoomCmd::HandOver
                            } else {
                                RoomCmd::Abort {
                                    reason: reason.clone(),
                                }
                            })
                            .await;
                        }
                    });
                }
            }
        }
    }

    fn tell(&self, to: SessionId, notice: Notice) {
        let Some(inbox) = self.inboxes.get(&to) else {
            return;
        };
        let msg = match notice {
            Notice::Name(n) => ToSession::Name(n),
            Notice::RoomCode(c) => ToSession::RoomCode(c),
            Notice::LobbyError(e) => ToSession::LobbyError(Box::new(e)),
            Notice::NoRoomForLogin(c) => ToSession::NoRoomForLogin(c),
            Notice::Kick(m) => ToSession::Kick(m),
            Notice::Replaced(m) => ToSession::Replaced(m),
            Notice::Told(m) => ToSession::Told(Box::new(m)),
            Notice::Invited(i) => ToSession::Invited(Box::new(i)),
            Notice::InvitationGone { from } => ToSession::InvitationGone { from },
            Notice::Prefs(p) => ToSession::Prefs(p),
            Notice::Waiting { kind, nearest } => ToSession::Waiting(Box::new((kind, nearest))),
            Notice::Joined(room) => match self.rooms.get(&room) {
                Some((handle, state)) => ToSession::Joined(Box::new(RoomLink {
                    room: handle.clone(),
                    state: state.clone(),
                    resume: self.state.resume_code(room, to),
                })),
                None => return,
            },
        };
        // A session whose inbox is full is not reading; it will be cut off
        // by its own limits, so dropping here is safe.
        let _ = inbox.try_send(msg);
    }
}

#[cfg(test)]
mod tests {
    use super::room::ROOM_QUEUE_FOR_TESTS;
    use super::*;

    /// A lobby on this runtime, offering Connect Four, with a computer
    /// that never plays here.
    fn lobby() -> LobbyHandle {
        spawn(LobbySettings {
            games: vec![Rules::connect_four()],
            computer: Computer::for_tests(),
            recorder: None,
            match_wait: Duration::from_secs(30),
            clocks: HashMap::new(),
            claim_after: Duration::from_secs(120),
            reconnect_grace: Duration::from_secs(60),
            max_spectators: 500,
            chat_max: 200,
            metrics: Default::default(),
            across: None,
        })
    }

    async fn member(lobby: &LobbyHandle, id: SessionId) -> crate::mailbox::Receiver<ToSession> {
        let (inbox, rx) = crate::mailbox::channel(32);
        lobby
            .join(
                Arrival {
                    id,
                    name: Some(format!("p{id}")),
                    ..Arrival::default()
                },
                inbox,
            )
            .await
            .expect("the lobby is up");
        rx
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_crowd_asking_to_watch_at_once_is_not_dropped() {
        // On one thread the lobby handles every request queued before the
        // room runs at all: more than the room's queue holds.
        const CROWD: u64 = 3 * ROOM_QUEUE_FOR_TESTS as u64;
        let lobby = lobby();
        let mut players = Vec::new();
        for id in [1, 2] {
            players.push(member(&lobby, id).await);
            lobby
                .send(Command::QuickMatch {
                    id,
                    kind: crate::game::GameKind::ConnectFour,
                })
                .await;
        }
        let room = loop {
            match players[0].recv().await {
                Some(ToSession::Joined(link)) => break link.room.id,
                Some(_) => continue,
                None => panic!("the lobby went away"),
            }
        };
        let mut crowd = Vec::new();
        for id in 10..10 + CROWD {
            crowd.push(member(&lobby, id).await);
        }
        for id in 10..10 + CROWD {
            lobby.try_send(Command::Watch { id, room });
        }
        for (i, inbox) in crowd.iter_mut().enumerate() {
            let got = tokio::time::timeout(Duration::from_secs(5), async {
                loop {
                    match inbox.recv().await {
                        Some(ToSession::Watching(_)) => return true,
                        Some(ToSession::LobbyError(e)) => panic!("refused: {e}"),
                        Some(_) => continue,
                        None => return false,
                    }
                }
            })
            .await;
            assert_eq!(got, Ok(true), "watcher {i} of {CROWD} never got the game");
        }
    }

    /// Joins a member every 50 ms for `span` (each join changes the
    /// counts) and returns when the counts changed, as seen each time.
    async fn counts_changes(
        lobby: &LobbyHandle,
        stats: &mut watch::Receiver<Stats>,
        inboxes: &mut Vec<crate::mailbox::Receiver<ToSession>>,
        span: Duration,
    ) -> Vec<tokio::time::Instant> {
        let end = tokio::time::Instant::now() + span;
        let mut seen = Vec::new();
        while tokio::time::Instant::now() < end {
            inboxes.push(member(lobby, 1 + inboxes.len() as u64).await);
            tokio::time::sleep(Duration::from_millis(50)).await;
            if stats.has_changed().unwrap() {
                stats.borrow_and_update();
                seen.push(tokio::time::Instant::now());
            }
        }
        seen
    }

    fn gaps(times: &[tokio::time::Instant]) -> Vec<Duration> {
        times.windows(2).map(|w| w[1] - w[0]).collect()
    }

    #[tokio::test(start_paused = true)]
    async fn the_counts_change_less_often_the_more_people_are_online() {
        assert_eq!(stats_interval(0), STATS_INTERVAL);
        assert_eq!(stats_interval(1_000), STATS_INTERVAL);
        assert_eq!(stats_interval(6_000), Duration::from_secs(3));
        assert_eq!(stats_interval(1_000_000), STATS_INTERVAL_MAX);
        let lobby = lobby();
        let mut stats = lobby.stats();
        let mut inboxes = Vec::new();
        // A few people: every change shows within half a second.
        let seen = counts_changes(&lobby, &mut stats, &mut inboxes, Duration::from_secs(5)).await;
        let g = gaps(&seen);
        assert!(g.len() >= 8, "{g:?}");
        assert!(
            g.iter()
                .all(|&d| d >= STATS_INTERVAL - Duration::from_millis(60)
                    && d < Duration::from_secs(1)),
            "{g:?}"
        );
        // Six thousand: the counts change every three seconds, however
        // often people come.
        while inboxes.len() < 6_000 {
            inboxes.push(member(&lobby, 1 + inboxes.len() as u64).await);
        }
        stats.borrow_and_update();
        let seen = counts_changes(&lobby, &mut stats, &mut inboxes, Duration::from_secs(16)).await;
        let g = gaps(&seen);
        assert!(g.len() >= 3, "{g:?}");
        assert!(
            g.iter()
                .all(|&d| d >= Duration::from_millis(2_950) && d < Duration::from_millis(3_700)),
            "{g:?}"
        );
    }

    /// Everything waiting in an inbox, once the lobby has handled what
    /// was sent (yielding lets it run; a paused clock does not move).
    async fn news(inbox: &mut crate::mailbox::Receiver<ToSession>) -> Vec<ToSession> {
        for _ in 0..64 {
            tokio::task::yield_now().await;
        }
        let mut got = Vec::new();
        while let Ok(msg) = inbox.try_recv() {
            got.push(msg);
        }
        got
    }

    #[tokio::test(start_paused = true)]
    async fn an_invitation_lapses_after_a_minute_and_cannot_be_accepted_then() {
        let lobby = lobby();
        let t0 = crate::lobby::now();
        let until = |d: Duration| tokio::time::sleep_until(tokio::time::Instant::from_std(t0 + d));
        let mut ann = member(&lobby, 1).await;
        let mut bob = member(&lobby, 2).await;
        lobby
            .send(Command::Challenge {
                id: 1,
                challenge: crate::protocol::Challenge {
                    to: 2,
                    kind: crate::game::GameKind::ConnectFour,
                    rated: false,
                    clock: None,
                    opening: crate::table::Opening::Standard,
                },
            })
            .await;
        let got = news(&mut bob).await;
        assert!(
            got.iter()
                .any(|m| matches!(m, ToSession::Invited(i) if i.from == 1)),
            "{got:?}"
        );
        let got = news(&mut ann).await;
        assert!(
            got.iter()
                .any(|m| matches!(m, ToSession::Told(s) if s.to_string().starts_with("invitation sent to p2"))),
            "{got:?}"
        );
        // The lobby's ticks come and go (the paused clock moves from one
        // timer to the next): a moment before the minute, still open.
        until(state::invitations::INVITATION_LAPSE - Duration::from_millis(1)).await;
        let got = news(&mut bob).await;
        assert!(got.is_empty(), "{got:?}");
        assert!(news(&mut ann).await.is_empty());
        // By the tick after the minute, it has lapsed: both are told.
        until(state::invitations::INVITATION_LAPSE + STATS_INTERVAL).await;
        let got = news(&mut bob).await;
        assert!(
            matches!(got[..], [ToSession::InvitationGone { from: 1 }]),
            "{got:?}"
        );
        let got = news(&mut ann).await;
        assert!(
            matches!(&got[..], [ToSession::Told(s)] if s.to_string() == "p2 did not answer your invitation"),
            "{got:?}"
        );
        // Accepting it now seats nobody.
        lobby
            .send(Command::AnswerChallenge {
                id: 2,
                from: 1,
                accept: true,
            })
            .await;
        let got = news(&mut bob).await;
        assert!(
            matches!(&got[..], [ToSession::LobbyError(r)] if **r == Refusal::InvitationClosed),
            "{got:?}"
        );
        assert!(news(&mut ann).await.is_empty());
    }
}
